# Copyright 2026 the @x/msgpackr authors. MIT license.
"""Python's `msgpack` as a peer for timestamps to the nanosecond, for tests/python_peer_test.ts.

Run with Debian's /usr/bin/python3 and python3-msgpack:

  peer.py times    prints one JSON line per msgpack.Timestamp of the corpus: {"name",
                   "seconds" and "nanoseconds" (the seconds as a decimal string),
                   "msgpack": base64 of the Timestamp packed by msgpack.packb}
  peer.py decode   reads lines of base64 payloads (one timestamp each, packed by the library)
                   from stdin and prints, per line, {"seconds", "nanoseconds", "repacked": base64
                   of msgpack.packb of the Timestamp msgpack decoded} or {"error": "..."}

The corpus has nanoseconds in every era and timestamp form: before 1970, the edges of the 32-bit
and 34-bit seconds, the years 1, 9999 and beyond a JavaScript Date's, and the ends of int64
seconds.
"""

import base64
import json
import sys

import msgpack


def corpus():
    """(name, seconds, nanoseconds) of every case."""
    return [
        ("epoch", 0, 0),
        ("epoch + 1 ns", 0, 1),
        ("whole seconds", 1700000000, 0),
        ("nanoseconds", 1700000000, 123456789),
        ("1900 + 999999999 ns", -2208988800, 999999999),
        ("1969, last nanosecond", -1, 999999999),
        ("1969, one nanosecond", -1, 1),
        ("2038, last of int32 seconds", 2**31 - 1, 999999999),
        ("2106, last of 32-bit seconds, whole", 2**32 - 1, 0),
        ("2106, last of 32-bit seconds", 2**32 - 1, 999999999),
        ("2106, first past 32-bit seconds", 2**32, 0),
        ("2514, last of 34-bit seconds", 2**34 - 1, 999999999),
        ("2514, first past 34-bit seconds", 2**34, 0),
        ("9999, last nanosecond", 253402300799, 999999999),
        ("year 1", -62135596800, 0),
        ("beyond a Date's years", 10**13, 7),
        ("int64 seconds, largest", 2**63 - 1, 999999999),
        ("int64 seconds, smallest", -(2**63), 0),
    ]


def times():
    for name, seconds, nanoseconds in corpus():
        payload = msgpack.packb(msgpack.Timestamp(seconds, nanoseconds))
        print(json.dumps({"name": name, "seconds": str(seconds), "nanoseconds": nanoseconds,
                          "msgpack": base64.b64encode(payload).decode()}))


def decode():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            value = msgpack.unpackb(base64.b64decode(line), timestamp=0)
            if not isinstance(value, msgpack.Timestamp):
                raise TypeError(f"not a Timestamp: {value!r}")
            print(json.dumps({"seconds": str(value.seconds), "nanoseconds": value.nanoseconds,
                              "repacked": base64.b64encode(msgpack.packb(value)).decode()}))
        except Exception as error:  # a payload Python cannot read
            print(json.dumps({"error": f"{type(error).__name__}: {error}"}))


if __name__ == "__main__":
    if sys.argv[1:] == ["times"]:
        times()
    elif sys.argv[1:] == ["decode"]:
        decode()
    else:
        sys.exit("usage: peer.py times|decode")
