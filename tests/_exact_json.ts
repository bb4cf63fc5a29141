// Copyright 2026 the @x/msgpackr authors. MIT license.
// JSON texts read with their numbers exact, for the tests that compare the JSON another program
// prints (Python's `json`, Go's `encoding/json`, the command line tool) without `JSON.parse`'s
// rounding: integers as BigInt, other numbers as numbers, objects as their members in order.

/** A JSON value with exact numbers: integers as BigInt, objects as their members in order. */
export type Exact = null | boolean | bigint | number | string | Exact[] | {
  members: [string, Exact][];
};

/** Parses a sequence of JSON texts into {@linkcode Exact} values (independently of the tool). */
export function parseExact(source: string): Exact[] {
  let pos = 0;
  const space = () => {
    while (pos < source.length && " \t\r\n".includes(source[pos])) pos++;
  };
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at ${pos}: ${JSON.stringify(source.slice(pos, pos + 20))}`);
  };
  const value = (): Exact => {
    space();
    const char = source[pos];
    if (char === "{") {
      pos++;
      const members: [string, Exact][] = [];
      space();
      if (source[pos] === "}") {
        pos++;
        return { members };
      }
      for (;;) {
        space();
        const key = value();
        if (typeof key !== "string") fail("expected a key");
        space();
        if (source[pos++] !== ":") fail("expected ':'");
        members.push([key as string, value()]);
        space();
        const next = source[pos++];
        if (next === "}") return { members };
        if (next !== ",") fail("expected ',' or '}'");
      }
    }
    if (char === "[") {
      pos++;
      const items: Exact[] = [];
      space();
      if (source[pos] === "]") {
        pos++;
        return items;
      }
      for (;;) {
        items.push(value());
        space();
        const next = source[pos++];
        if (next === "]") return items;
        if (next !== ",") fail("expected ',' or ']'");
      }
    }
    if (char === '"') {
      const match = /^"(?:[^"\\]|\\.)*"/.exec(source.slice(pos, pos + source.length));
      if (match === null) fail("bad string");
      pos += match![0].length;
      return JSON.parse(match![0]);
    }
    const number = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(source.slice(pos, pos + 400));
    if (number !== null) {
      pos += number[0].length;
      return number[1] === undefined && number[2] === undefined
        ? BigInt(number[0])
        : Number(number[0]);
    }
    for (const [word, result] of [["true", true], ["false", false], ["null", null]] as const) {
      if (source.startsWith(word, pos)) {
        pos += word.length;
        return result;
      }
    }
    return fail("unexpected text");
  };
  const values: Exact[] = [];
  space();
  while (pos < source.length) {
    values.push(value());
    space();
  }
  return values;
}
