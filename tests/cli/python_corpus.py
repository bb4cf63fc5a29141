# Copyright 2026 the @x/msgpackr authors. MIT license.
"""A corpus of MessagePack payloads packed by Python's `msgpack`, for tests/cli_python_test.ts.

Run with Debian's /usr/bin/python3 and python3-msgpack:

  python_corpus.py corpus   prints one JSON line per case:
                            {"name", "msgpack": base64 of the payload,
                             "json": what `msgpackr decode` must print for it,
                             "plain": whether that is json.dumps of the value Python decodes
                                      (else the value needs tags: the documented tag form),
                             "library": whether the library round trip applies}
  python_corpus.py check    reads lines {"name", "msgpack": base64} from stdin, payloads that
                            the library decoded and packed again, and prints "ok NAME" or
                            "FAIL NAME: why" for each, comparing what Python decodes from them
                            with what it decodes from the original payload.
  python_corpus.py types    reads lines of base64 payloads from stdin (packed by the library) and
                            prints, for each, what Python decodes with timestamp=3 (datetimes)
                            as JSON with every value a pair [Python type name, value]: ints and
                            floats as they are, bytes in hex, datetimes in ISO form.

The expected JSON of a value JSON can show is `json.dumps` of what `msgpack.unpackb` returns;
for any other value it is the tag form the tool documents, written here independently of the
tool: bin and ext in base64, timestamps as ISO text to the nanosecond (seconds and nanoseconds
outside the range of a JavaScript Date), maps with keys that are not strings as entries, NaN and
the infinities in float64 / float32 tags.
"""

import base64
import datetime
import json
import math
import sys

import msgpack

UNPACK = {"strict_map_key": False, "timestamp": 0, "raw": False}
EPOCH = datetime.datetime(1970, 1, 1)
DATE_SECONDS = 8640000000000  # the seconds a JavaScript Date can hold on either side of 1970


def text_of_bytes(n, unit):
    """A string of exactly n UTF-8 bytes: `unit` repeated, then ASCII to fill."""
    size = len(unit.encode())
    return unit * (n // size) + "a" * (n % size)


def cases():
    """(name, payload, float32, library) for every case."""
    out = []

    def add(name, value, float32=False, library=True):
        out.append((name, msgpack.packb(value, use_single_float=float32), float32, library))

    # integers at every width boundary, alone and together
    ints = [0, 1, 63, 64, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 5000000000,
            2**53 - 1, 2**53, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1,
            -1, -32, -33, -128, -129, -32768, -32769, -2**31, -2**31 - 1, -2**53 - 1, -2**63]
    for n in ints:
        add(f"int {n}", n)
    add("ints", ints)
    add("issue example", {"id": 5000000000, "name": "Ada", "tags": ["x", "y"],
                          "nested": {"a": 1}})
    # floats: float64, and float32 (Python decodes those to the double they widen to)
    floats = [0.0, -0.0, 1.0, -1.5, 0.1, 1 / 3, 1e16, 1e-7, 123456789.123, 5e-324,
              1.7976931348623157e308, 2.0**53, 1e21, 1e300, -2.5e-300]
    add("floats", floats)
    add("floats as float32", [0.1, 1.5, 16777216.0, 3.4028234663852886e38, 1e-45, -0.0, 1 / 3],
        float32=True)
    add("float 1.0 alone", 1.0)
    add("non-finite floats", [math.nan, math.inf, -math.inf])
    add("non-finite floats as float32", [math.nan, math.inf, -math.inf], float32=True)
    # strings of every length class (fixstr, str8, str16, str32) in every UTF-8 width
    for unit in ["a", "é", "中", "😀"]:
        for n in [0, 1, 31, 32, 255, 256, 65535, 65536]:
            if n > 0 or unit == "a":
                add(f"str {n} bytes of {unit!r}", text_of_bytes(n, unit))
    add("str escapes", "quote \" backslash \\ newline \n tab \t nul \0 del \x7f \u2028 \U0001f600")
    # binary of every length class
    for n in [0, 1, 255, 256, 65535, 65536]:
        add(f"bin {n}", bytes(i % 251 for i in range(n)))
    # arrays and maps of every header width, nested
    for n in [0, 15, 16, 65535, 65536]:
        add(f"array {n}", list(range(n)))
    for n in [0, 15, 16, 65535, 65536]:
        add(f"map {n}", {f"k{i}": i for i in range(n)})
    add("nested", {"a": {"b": {"c": [1, {"d": None, "e": [True, False, [], {}]}]}},
                   "list": [[1, [2, [3, "x"]]], {"y": 2.5}]})
    add("scalars", [None, True, False, 0, "", [], {}])
    add("nil", None)
    add("true", True)
    # maps with keys that are not strings
    add("int keys", {1: "a", 2: "b"})
    add("mixed keys", {1: "a", "b": 2, None: [1], 2.5: {3: 4}})
    add("int keys nested", {"outer": {-1: [1, 2], 2**64 - 1: True}})
    add("binary key", {b"\x01": "bytes as a key"})
    # timestamps: 32-bit, 64-bit and 96-bit forms
    add("timestamp32 0", msgpack.Timestamp(0, 0))
    add("timestamp32", msgpack.Timestamp(1700000000, 0))
    add("timestamp64 ms", msgpack.Timestamp(1700000000, 123000000))
    add("timestamp64 ns", msgpack.Timestamp(1700000000, 123456789), library=False)
    add("timestamp64 max", msgpack.Timestamp(2**34 - 1, 999999999), library=False)
    add("timestamp96 before 1970", msgpack.Timestamp(-1, 500000000))
    add("timestamp96 year 1", msgpack.Timestamp(-62135596800, 0))
    add("timestamp96 far", msgpack.Timestamp(10**13, 7), library=False)
    add("timestamps in a map", {"created": msgpack.Timestamp(1700000000, 5000000),
                                "deleted": None})
    # a datetime as a Python service packs it (datetime=True: aware datetimes as timestamps)
    when = datetime.datetime(2023, 11, 14, 22, 13, 20, 123000, tzinfo=datetime.timezone.utc)
    out.append(("datetime", msgpack.packb({"at": when}, datetime=True), False, True))
    # extension types no one here registered
    add("ext fixext1", msgpack.ExtType(5, b"a"))
    add("ext empty", msgpack.ExtType(1, b""))
    add("ext fixext16", msgpack.ExtType(127, bytes(range(16))))
    add("ext16", msgpack.ExtType(100, bytes(300)))
    add("ext in an array", [msgpack.ExtType(5, b"xyz"), 1])
    return out


def is_plain(value):
    """Whether JSON shows the value as it is (the tool's rule, not json.dumps's: int keys)."""
    if value is None or isinstance(value, (bool, int, str)):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(is_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_plain(v) for k, v in value.items())
    return False


def iso(ts):
    seconds, nanoseconds = ts.seconds, ts.nanoseconds
    if not -DATE_SECONDS < seconds < DATE_SECONDS:
        return None
    when = EPOCH + datetime.timedelta(seconds=seconds)
    if not 1 <= when.year <= 9999:
        return None
    if nanoseconds % 1000000 == 0:
        fraction = f"{nanoseconds // 1000000:03d}"
    else:
        fraction = f"{nanoseconds:09d}"
    return (f"{when.year:04d}-{when.month:02d}-{when.day:02d}T"
            f"{when.hour:02d}:{when.minute:02d}:{when.second:02d}.{fraction}Z")


def tagged(value, float32):
    """The value in the tool's documented tag form (plain where JSON shows it)."""
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        name = "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"
        return {"$msgpack": "float32" if float32 else "float64", "value": name}
    if isinstance(value, bytes):
        return {"$msgpack": "bin", "base64": base64.b64encode(value).decode()}
    if isinstance(value, msgpack.ExtType):
        return {"$msgpack": "ext", "type": value.code,
                "base64": base64.b64encode(value.data).decode()}
    if isinstance(value, msgpack.Timestamp):
        text = iso(value)
        if text is not None:
            return {"$msgpack": "timestamp", "value": text}
        return {"$msgpack": "timestamp", "seconds": str(value.seconds),
                "nanoseconds": value.nanoseconds}
    if isinstance(value, list):
        return [tagged(v, float32) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: tagged(v, float32) for k, v in value.items()}
        return {"$msgpack": "map",
                "entries": [[tagged(k, float32), tagged(v, float32)] for k, v in value.items()]}
    raise TypeError(f"no tag form for {type(value)}")


def corpus():
    for name, payload, float32, library in cases():
        value = msgpack.unpackb(payload, **UNPACK)
        plain = is_plain(value)
        text = json.dumps(value) if plain else json.dumps(tagged(value, float32))
        print(json.dumps({"name": name, "msgpack": base64.b64encode(payload).decode(),
                          "json": text, "plain": plain, "library": library}))


def same(a, b, path):
    """None when Python's value `b` (from the library's bytes) equals `a`, else why not.

    JavaScript numbers do not keep Python's int/float distinction: a float with an integral
    value (1.0, 16777216.0, -0.0) comes back as that integer; any other float stays a float.
    """
    if isinstance(a, float):
        if isinstance(b, int) and not isinstance(b, bool) and a.is_integer() and a == b:
            return None
        if not isinstance(b, float):
            return f"{path}: {a!r} came back as {b!r}"
        if math.isnan(a) and math.isnan(b):
            return None
        return None if a == b else f"{path}: {a!r} came back as {b!r}"
    if type(a) is not type(b):
        return f"{path}: {a!r} ({type(a).__name__}) came back as {b!r} ({type(b).__name__})"
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items came back as {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            why = same(x, y, f"{path}[{i}]")
            if why:
                return why
        return None
    if isinstance(a, dict):
        if list(a.keys()) != list(b.keys()):
            return f"{path}: keys {list(a.keys())[:5]!r}… came back as {list(b.keys())[:5]!r}…"
        for k in a:
            why = same(a[k], b[k], f"{path}[{k!r}]")
            if why:
                return why
        return None
    return None if a == b else f"{path}: {a!r} came back as {b!r}"


def typed(value):
    """The value with every leaf as [type name, value] (bytes in hex, datetimes in ISO form)."""
    if isinstance(value, dict):
        return {k: typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [typed(v) for v in value]
    if isinstance(value, bytes):
        return ["bytes", value.hex()]
    if isinstance(value, datetime.datetime):
        return ["datetime", value.isoformat()]
    return [type(value).__name__, value]


def types():
    for line in sys.stdin:
        if line.strip():
            value = msgpack.unpackb(base64.b64decode(line), **{**UNPACK, "timestamp": 3})
            print(json.dumps(typed(value)))


def check():
    originals = {name: payload for name, payload, _, _ in cases()}
    failed = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        name = case["name"]
        original = msgpack.unpackb(originals[name], **UNPACK)
        try:
            back = msgpack.unpackb(base64.b64decode(case["msgpack"]), **UNPACK)
            why = same(original, back, "value")
        except Exception as error:  # a payload Python cannot read
            why = f"cannot unpack: {error}"
        if why:
            failed += 1
            print(f"FAIL {name}: {why}")
        else:
            print(f"ok {name}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    if sys.argv[1:] == ["corpus"]:
        corpus()
    elif sys.argv[1:] == ["check"]:
        check()
    elif sys.argv[1:] == ["types"]:
        types()
    else:
        sys.exit("usage: python_corpus.py corpus|check|types")
