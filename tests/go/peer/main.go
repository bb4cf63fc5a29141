// Copyright 2026 the @x/msgpackr authors. MIT license.

// A Go service's side of MessagePack, written with github.com/vmihailenco/msgpack/v5 (Debian's
// golang-github-vmihailenco-msgpack.v5-dev) as a Go developer writes it: structs with tagged
// fields, Go's own integer widths, time.Time and []byte. tests/go_peer_test.ts builds it
// (GO111MODULE=off GOPATH=/usr/share/gocode) and runs it:
//
//	peer corpus        prints one JSON line per case: {"name", "msgpack": base64 of the value
//	                   packed by msgpack, "json": the value as encoding/json prints it}
//	peer decode        reads lines {"type", "msgpack": base64} from stdin, unmarshals each into
//	                   the typed struct named by "type" and prints {"json": <encoding/json of the
//	                   struct>} or {"error": "…"} per line
//	peer times         prints one JSON line per time.Time of the nanosecond corpus: {"name",
//	                   "seconds": Unix() as a decimal string, "nanoseconds": Nanosecond(),
//	                   "text": the time in UTC with 9 fraction digits, "msgpack": base64 of the
//	                   time packed by msgpack}
//	peer decode        (type "Time") unmarshals into a time.Time and prints {"json": {"seconds",
//	                   "nanoseconds"}}, as `times` gives them, for years JSON cannot print
//	peer server        serves on 127.0.0.1 (a free port) and prints its URL on the first line:
//	                   GET /order (one Order), GET /orders?count=N (a sequence of N Orders),
//	                   POST /event (the body unmarshalled into an Event and packed back; 400
//	                   with the error as text when it cannot be unmarshalled)
//	peer client URL    posts an Order to URL as MessagePack, unmarshals the MessagePack answer
//	                   into a Reply and prints {"status", "type", "reply"} or {"status", "type",
//	                   "error"} as JSON
//
// Times are printed in UTC. The library packs maps in Go's random order (but map[string]string
// and map[string]interface{}, sorted here), and encoding/json prints them sorted.
package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/vmihailenco/msgpack/v5"
)

// Item is a line of an order.
type Item struct {
	SKU   string  `msgpack:"sku" json:"sku"`
	Qty   int     `msgpack:"qty" json:"qty"`
	Price float64 `msgpack:"price" json:"price"`
}

// Customer is nested in an order.
type Customer struct {
	ID   int64  `msgpack:"id" json:"id"`
	Name string `msgpack:"name" json:"name"`
	VIP  bool   `msgpack:"vip" json:"vip"`
}

// Order is what a Go service sends. The library writes int64 and uint64 fields as 9-byte
// int64/uint64 (`d3`/`cf`) whatever their value, and int fields in the smallest form.
type Order struct {
	ID       int64             `msgpack:"id" json:"id"`
	Qty      int64             `msgpack:"qty" json:"qty"`
	Status   string            `msgpack:"status" json:"status"`
	Weight   float32           `msgpack:"weight" json:"weight"`
	Total    float64           `msgpack:"total" json:"total"`
	Created  time.Time         `msgpack:"created" json:"created"`
	Receipt  []byte            `msgpack:"receipt" json:"receipt"`
	Items    []Item            `msgpack:"items" json:"items"`
	Groups   [][]Item          `msgpack:"groups" json:"groups"`
	Customer Customer          `msgpack:"customer" json:"customer"`
	Labels   map[string]string `msgpack:"labels" json:"labels"`
	Counts   map[string]int    `msgpack:"counts" json:"counts"`
	Note     *string           `msgpack:"note" json:"note"`
	Coupon   string            `msgpack:"coupon,omitempty" json:"coupon,omitempty"`
	Secret   string            `msgpack:"-" json:"-"`
}

// Widths holds every integer width of Go at its boundaries.
type Widths struct {
	I8Min   int8    `msgpack:"i8_min" json:"i8_min"`
	I8Max   int8    `msgpack:"i8_max" json:"i8_max"`
	I16Min  int16   `msgpack:"i16_min" json:"i16_min"`
	I16Max  int16   `msgpack:"i16_max" json:"i16_max"`
	I32Min  int32   `msgpack:"i32_min" json:"i32_min"`
	I32Max  int32   `msgpack:"i32_max" json:"i32_max"`
	I64Min  int64   `msgpack:"i64_min" json:"i64_min"`
	I64Max  int64   `msgpack:"i64_max" json:"i64_max"`
	U8Max   uint8   `msgpack:"u8_max" json:"u8_max"`
	U16Max  uint16  `msgpack:"u16_max" json:"u16_max"`
	U32Max  uint32  `msgpack:"u32_max" json:"u32_max"`
	U64Max  uint64  `msgpack:"u64_max" json:"u64_max"`
	Int     int     `msgpack:"int" json:"int"`
	Uint    uint    `msgpack:"uint" json:"uint"`
	Safe    int64   `msgpack:"safe" json:"safe"`
	NegSafe int64   `msgpack:"neg_safe" json:"neg_safe"`
	Unsafe  int64   `msgpack:"unsafe" json:"unsafe"`
	USafe   uint64  `msgpack:"usafe" json:"usafe"`
	UUnsafe uint64  `msgpack:"uunsafe" json:"uunsafe"`
	Millis  int64   `msgpack:"millis" json:"millis"`
	Small   []int64 `msgpack:"small" json:"small"`
}

// Times holds time.Time values of every timestamp form.
type Times struct {
	Epoch   time.Time `msgpack:"epoch" json:"epoch"`
	Seconds time.Time `msgpack:"seconds" json:"seconds"`
	Millis  time.Time `msgpack:"millis" json:"millis"`
	Nanos   time.Time `msgpack:"nanos" json:"nanos"`
	Before  time.Time `msgpack:"before" json:"before"`
	Zero    time.Time `msgpack:"zero" json:"zero"`
	Far     time.Time `msgpack:"far" json:"far"`
}

// Floats holds float32 and float64 values that print the same in every language (no integral
// values: encoding/json prints 2.0 as 2, which is an integer in JSON).
type Floats struct {
	Half     float32   `msgpack:"half" json:"half"`
	Neg32    float32   `msgpack:"neg32" json:"neg32"`
	Tiny32   float32   `msgpack:"tiny32" json:"tiny32"`
	Tenth    float64   `msgpack:"tenth" json:"tenth"`
	Third    float64   `msgpack:"third" json:"third"`
	Tiny     float64   `msgpack:"tiny" json:"tiny"`
	Huge     float64   `msgpack:"huge" json:"huge"`
	Smallest float64   `msgpack:"smallest" json:"smallest"`
	Series   []float64 `msgpack:"series" json:"series"`
}

// Event is what a Go service receives from us: every field typed.
type Event struct {
	At       int64             `msgpack:"at" json:"at"`
	ID       uint64            `msgpack:"id" json:"id"`
	Seq      int               `msgpack:"seq" json:"seq"`
	Small    int8              `msgpack:"small" json:"small"`
	U16      uint16            `msgpack:"u16" json:"u16"`
	I32      int32             `msgpack:"i32" json:"i32"`
	U32      uint32            `msgpack:"u32" json:"u32"`
	Neg      int64             `msgpack:"neg" json:"neg"`
	Big      uint64            `msgpack:"big" json:"big"`
	Ratio    float64           `msgpack:"ratio" json:"ratio"`
	Name     string            `msgpack:"name" json:"name"`
	Payload  []byte            `msgpack:"payload" json:"payload"`
	When     time.Time         `msgpack:"when" json:"when"`
	Tags     []string          `msgpack:"tags" json:"tags"`
	Items    []Item            `msgpack:"items" json:"items"`
	Customer Customer          `msgpack:"customer" json:"customer"`
	Labels   map[string]string `msgpack:"labels" json:"labels"`
}

// Gauge has a float32 field, which takes float32 (ca) only.
type Gauge struct {
	Value float32 `msgpack:"value" json:"value"`
}

// Reply is what the client expects back from our server.
type Reply struct {
	At   int64  `msgpack:"at" json:"at"`
	Qty  int    `msgpack:"qty" json:"qty"`
	JSON string `msgpack:"json" json:"json"`
}

func marshal(value interface{}) []byte {
	var buffer bytes.Buffer
	encoder := msgpack.NewEncoder(&buffer)
	encoder.SetSortMapKeys(true)
	if err := encoder.Encode(value); err != nil {
		panic(err)
	}
	return buffer.Bytes()
}

func jsonOf(value interface{}) json.RawMessage {
	text, err := json.Marshal(value)
	if err != nil {
		panic(err)
	}
	return text
}

func printJSON(value interface{}) {
	fmt.Println(string(jsonOf(value)))
}

func sampleOrder(id int64) Order {
	note := "leave at the door"
	return Order{
		ID:      id,
		Qty:     3,
		Status:  "confirmed",
		Weight:  1.25,
		Total:   25.1,
		Created: time.UnixMilli(1700000000123).UTC(),
		Receipt: []byte{0, 1, 2, 254, 255},
		Items: []Item{
			{SKU: "A-1", Qty: 2, Price: 12.5},
			{SKU: "B-2 é€😀", Qty: 1, Price: 0.1},
		},
		Groups:   [][]Item{{{SKU: "C-3", Qty: 7, Price: 1.5}}, {}},
		Customer: Customer{ID: 5000000000, Name: "Ada", VIP: true},
		Labels:   map[string]string{"zone": "eu-west", "priority": "high", "<tag>": "a&b"},
		Counts:   map[string]int{"b": -2, "a": 1, "c": 4000000000},
		Note:     &note,
		Secret:   "never sent",
	}
}

type corpusCase struct {
	Name    string          `json:"name"`
	Msgpack string          `json:"msgpack"`
	JSON    json.RawMessage `json:"json"`
}

func corpus() {
	widths := Widths{
		I8Min:   math.MinInt8,
		I8Max:   math.MaxInt8,
		I16Min:  math.MinInt16,
		I16Max:  math.MaxInt16,
		I32Min:  math.MinInt32,
		I32Max:  math.MaxInt32,
		I64Min:  math.MinInt64,
		I64Max:  math.MaxInt64,
		U8Max:   math.MaxUint8,
		U16Max:  math.MaxUint16,
		U32Max:  math.MaxUint32,
		U64Max:  math.MaxUint64,
		Int:     3,
		Uint:    4,
		Safe:    1<<53 - 1,
		NegSafe: -(1<<53 - 1),
		Unsafe:  1<<53 + 1,
		USafe:   1 << 53,
		UUnsafe: 1<<63 + 1,
		Millis:  1700000000123,
		Small:   []int64{0, 1, -1, 127, -32, 128, -129, 1 << 31, -(1 << 31) - 1},
	}
	times := Times{
		Epoch:   time.Unix(0, 0).UTC(),
		Seconds: time.Unix(1700000000, 0).UTC(),
		Millis:  time.UnixMilli(1700000000123).UTC(),
		Nanos:   time.Unix(1700000000, 123456789).UTC(),
		Before:  time.Unix(-2, 500000000).UTC(),
		Zero:    time.Time{},
		Far:     time.Date(2500, 1, 2, 3, 4, 5, 6, time.UTC),
	}
	floats := Floats{
		Half: 0.5, Neg32: -1024.75, Tiny32: 0.0009765625,
		Tenth: 0.1, Third: 1.0 / 3, Tiny: 1e-7, Huge: 1.5e300, Smallest: 5e-324,
		Series: []float64{0.5, -2.25, 2.5e21, 123456.789},
	}
	mixed := map[string]interface{}{
		"string": "text",
		"int":    7,
		"float":  2.5,
		"bool":   false,
		"nil":    nil,
		"list":   []interface{}{"a", 1, 1.5, true, nil},
		"nested": map[string]interface{}{"deep": map[string]int{"x": 1}},
	}
	cases := []struct {
		name  string
		value interface{}
	}{
		{"order", sampleOrder(5000000001)},
		{"orders", []Order{sampleOrder(1), sampleOrder(1 << 40)}},
		{"widths", widths},
		{"zero widths", Widths{}},
		{"times", times},
		{"floats", floats},
		{"bare int", 3},
		{"bare int64 beyond 2^53", int64(1<<62 + 5)},
		{"ints", []int{0, 1 << 32, -(1 << 32), 1<<53 - 1}},
		{"uint64s", []uint64{0, 1 << 32, 1<<64 - 1}},
		{"strings", map[string]string{
			"empty": "", "unicode": "é€😀中", "escapes": "quote \" backslash \\ newline \n tab \t",
			"html": "<b>&amp;</b>", "separators": "\u2028\u2029",
		}},
		{"bytes", map[string][]byte{"empty": {}, "none": nil, "some": []byte("hello, world")}},
		{"map of structs", map[string]Item{"first": {SKU: "X", Qty: 1, Price: 9.5}, "second": {Price: 0.25}}},
		{"nested maps", map[string]map[string]int{"outer": {"b": 2, "a": 1}, "empty": {}}},
		{"mixed", mixed},
	}
	for _, c := range cases {
		printJSON(corpusCase{
			Name:    c.name,
			Msgpack: base64.StdEncoding.EncodeToString(marshal(c.value)),
			JSON:    jsonOf(c.value),
		})
	}
}

// nanoTimes are time.Time values with nanoseconds in every era and timestamp form: before 1970,
// the edges of the 32-bit and 34-bit seconds, beyond the years a JavaScript Date holds, and near
// the ends of int64 seconds (not at -2^63 itself, where Format wraps around to a positive year).
func nanoTimes() []struct {
	name string
	time time.Time
} {
	return []struct {
		name string
		time time.Time
	}{
		{"epoch", time.Unix(0, 0)},
		{"epoch + 1 ns", time.Unix(0, 1)},
		{"whole seconds", time.Unix(1700000000, 0)},
		{"nanoseconds", time.Unix(1700000000, 123456789)},
		{"1900 + 1 ns", time.Date(1900, 1, 1, 0, 0, 0, 1, time.UTC)},
		{"1969, last nanosecond", time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC)},
		{"1969, half a second", time.Unix(-1, 500000000)},
		{"2038, last of int32 seconds", time.Unix(1<<31-1, 999999999)},
		{"2106, last of 32-bit seconds", time.Unix(1<<32-1, 999999999)},
		{"2106, first past 32-bit seconds", time.Unix(1<<32, 0)},
		{"2514, last of 34-bit seconds", time.Unix(1<<34-1, 999999999)},
		{"2514, first past 34-bit seconds", time.Unix(1<<34, 1)},
		{"9999, last nanosecond", time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)},
		{"year 1 (Go's zero time)", time.Time{}},
		{"year 1 + 7 ns", time.Date(1, 1, 1, 0, 0, 0, 7, time.UTC)},
		{"year -5000", time.Date(-5000, 3, 1, 12, 0, 0, 42, time.UTC)},
		{"year 300000", time.Date(300000, 6, 15, 8, 30, 0, 999999999, time.UTC)},
		{"int64 seconds, largest", time.Unix(math.MaxInt64, 999999999)},
		{"2^62 seconds before 1970", time.Unix(-(1 << 62), 0)},
		{"1.5 · 2^62 seconds before 1970", time.Unix(-(1<<62)*3/2, 999999999)},
	}
}

func times() {
	for _, c := range nanoTimes() {
		printJSON(map[string]interface{}{
			"name":        c.name,
			"seconds":     strconv.FormatInt(c.time.Unix(), 10),
			"nanoseconds": c.time.Nanosecond(),
			"text":        c.time.UTC().Format("2006-01-02T15:04:05.000000000Z07:00"),
			"msgpack":     base64.StdEncoding.EncodeToString(marshal(c.time)),
		})
	}
}

func newOfType(name string) (interface{}, error) {
	switch name {
	case "Event":
		return &Event{}, nil
	case "Gauge":
		return &Gauge{}, nil
	case "Order":
		return &Order{}, nil
	case "Time":
		return &time.Time{}, nil
	}
	return nil, fmt.Errorf("no type %q", name)
}

func decode() {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<26)
	for scanner.Scan() {
		if len(bytes.TrimSpace(scanner.Bytes())) == 0 {
			continue
		}
		var request struct {
			Type    string `json:"type"`
			Msgpack string `json:"msgpack"`
		}
		if err := json.Unmarshal(scanner.Bytes(), &request); err != nil {
			panic(err)
		}
		data, err := base64.StdEncoding.DecodeString(request.Msgpack)
		if err != nil {
			panic(err)
		}
		target, err := newOfType(request.Type)
		if err == nil {
			err = msgpack.Unmarshal(data, target)
		}
		if err != nil {
			printJSON(map[string]string{"error": err.Error()})
		} else if t, ok := target.(*time.Time); ok {
			printJSON(map[string]interface{}{"json": map[string]interface{}{
				"seconds":     strconv.FormatInt(t.Unix(), 10),
				"nanoseconds": t.Nanosecond(),
			}})
		} else {
			printJSON(map[string]json.RawMessage{"json": jsonOf(target)})
		}
	}
}

func send(writer http.ResponseWriter, body []byte) {
	writer.Header().Set("Content-Type", "application/msgpack")
	writer.Header().Set("Content-Length", strconv.Itoa(len(body)))
	writer.Write(body)
}

func server() {
	mux := http.NewServeMux()
	mux.HandleFunc("/order", func(writer http.ResponseWriter, request *http.Request) {
		send(writer, marshal(sampleOrder(5000000001)))
	})
	mux.HandleFunc("/orders", func(writer http.ResponseWriter, request *http.Request) {
		count, _ := strconv.Atoi(request.URL.Query().Get("count"))
		var body bytes.Buffer
		for i := 0; i < count; i++ {
			body.Write(marshal(sampleOrder(int64(i) << 33)))
		}
		send(writer, body.Bytes())
	})
	mux.HandleFunc("/event", func(writer http.ResponseWriter, request *http.Request) {
		if request.Header.Get("Content-Type") != "application/msgpack" {
			http.Error(writer, "expected application/msgpack", http.StatusUnsupportedMediaType)
			return
		}
		data, err := io.ReadAll(request.Body)
		if err != nil {
			panic(err)
		}
		var event Event
		if err := msgpack.Unmarshal(data, &event); err != nil {
			http.Error(writer, err.Error(), http.StatusBadRequest)
			return
		}
		send(writer, marshal(event))
	})
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	fmt.Printf("http://%s/\n", listener.Addr().String())
	panic(http.Serve(listener, mux))
}

func client(url string) {
	order := sampleOrder(5000000001)
	request, err := http.NewRequest("POST", url, bytes.NewReader(marshal(order)))
	if err != nil {
		panic(err)
	}
	request.Header.Set("Content-Type", "application/msgpack")
	request.Header.Set("Accept", "application/msgpack")
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		panic(err)
	}
	defer response.Body.Close()
	data, err := io.ReadAll(response.Body)
	if err != nil {
		panic(err)
	}
	result := map[string]interface{}{
		"status": response.StatusCode,
		"type":   response.Header.Get("Content-Type"),
	}
	var reply Reply
	if err := msgpack.Unmarshal(data, &reply); err != nil {
		result["error"] = err.Error()
	} else {
		result["reply"] = reply
	}
	printJSON(result)
}

func main() {
	time.Local = time.UTC
	switch {
	case len(os.Args) == 2 && os.Args[1] == "corpus":
		corpus()
	case len(os.Args) == 2 && os.Args[1] == "times":
		times()
	case len(os.Args) == 2 && os.Args[1] == "decode":
		decode()
	case len(os.Args) == 2 && os.Args[1] == "server":
		server()
	case len(os.Args) == 3 && os.Args[1] == "client":
		client(os.Args[2])
	default:
		fmt.Fprintln(os.Stderr, "usage: peer corpus | times | decode | server | client URL")
		os.Exit(2)
	}
}
