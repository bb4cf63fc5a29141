// Copyright 2026 the @x/msgpackr authors. MIT license.
// Standard Schema validation in the decoders (Unpackr.unpackAs, decodeIter, UnpackrStream), with
// the real schema libraries: zod, valibot and arktype schemas each accept a valid value, reject
// `{ id: "x" }` for a numeric `id` with the path ["id"], and give their transformed output; zod's
// async refinements work on the async APIs and are a TypeError on the synchronous ones. The types
// are checked too (`deno check tests/`): each API's result is the schema's output.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import * as v from "valibot";
import { type } from "arktype";
import {
  decodeIter,
  IncompleteDataError,
  pack,
  Packr,
  type StandardSchemaV1,
  Unpackr,
  UnpackrStream,
  ValidationError,
} from "../mod.ts";
import { ValidationError as FromUnpack } from "../unpack.ts";
import { ValidationError as FromStream } from "../stream.ts";
import { ValidationError as FromNoEval } from "../no_eval.ts";
import { type Equal, keys, LIBRARIES } from "./_schemas.ts";

const unpackr = new Unpackr({ mapsAsObjects: true });
const STREAM = { mapsAsObjects: true } as const;

function isInvalidId(error: unknown, index?: number): boolean {
  assert.ok(error instanceof ValidationError, String(error));
  assert.ok(error instanceof TypeError);
  assert.equal(error.name, "ValidationError");
  assert.deepEqual(keys(error.issues[0]), ["id"]);
  assert.equal(error.index, index);
  const where = index === undefined ? "" : ` \\(index ${index}\\)`;
  assert.match(error.message, new RegExp(`^Invalid value${where} at \\$\\.id: \\S`));
  return true;
}

function chunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

const ROWS = [{ id: 1, name: "ann" }, { id: 2, name: "bob" }, { id: "x", name: "cy" }, {
  id: 4,
  name: "dee",
}];
const ROW_BYTES = new Uint8Array(ROWS.flatMap((row) => [...pack(row)]));

for (const library of LIBRARIES) {
  describe(`${library.name} schemas`, () => {
    test("Unpackr.unpackAs accepts a valid value and rejects { id: 'x' } at ['id']", () => {
      assert.deepEqual(unpackr.unpackAs(library.order, pack({ id: 1, name: "ann" })), {
        id: 1,
        name: "ann",
      });
      assert.throws(() => unpackr.unpackAs(library.order, pack({ id: "x", name: "ann" })), (
        error,
      ) => isInvalidId(error));
    });

    test("unpackAs gives the transformed output; records decode as objects", () => {
      assert.deepEqual(unpackr.unpackAs(library.measured, pack({ id: 1, name: "ann" })), {
        id: 1,
        name: 3,
      });
      // msgpackr's records (new Packr()) and a window of the input
      const packr = new Packr();
      const bytes = packr.pack({ id: 2, name: "bobby" });
      const framed = new Uint8Array([0xc0, ...bytes]);
      assert.deepEqual(packr.unpackAs(library.measured, framed, { start: 1 }), {
        id: 2,
        name: 5,
      });
    });

    test("decodeIter (sync and async) yields outputs, then the failure with its index", async () => {
      const seen: unknown[] = [];
      assert.throws(() => {
        for (
          const row of decodeIter(chunksOf(ROW_BYTES, 3), { ...STREAM, schema: library.measured })
        ) {
          seen.push(row);
        }
      }, (error) => isInvalidId(error, 2));
      assert.deepEqual(seen, [{ id: 1, name: 3 }, { id: 2, name: 3 }]);

      const later: unknown[] = [];
      const source = ReadableStream.from(chunksOf(ROW_BYTES, 1));
      await assert.rejects(async () => {
        for await (const row of decodeIter(source, { ...STREAM, schema: library.measured })) {
          later.push(row);
        }
      }, (error) => isInvalidId(error, 2));
      assert.deepEqual(later, [{ id: 1, name: 3 }, { id: 2, name: 3 }]);
    });

    test("UnpackrStream delivers outputs, then errors naming the failing value's index", async () => {
      const stream = ReadableStream.from(chunksOf(ROW_BYTES, 5))
        .pipeThrough(new UnpackrStream({ ...STREAM, schema: library.measured }));
      const seen: unknown[] = [];
      await assert.rejects(async () => {
        for await (const row of stream) seen.push(row);
      }, (error) => isInvalidId(error, 2));
      assert.deepEqual(seen, [{ id: 1, name: 3 }, { id: 2, name: 3 }]);
    });
  });
}

describe("async refinements", () => {
  // the ids the refinement saw (zod 4 runs it once in its synchronous attempt, then again)
  const checked: number[] = [];
  const Positive = z.object({
    id: z.number().refine(async (id) => {
      checked.push(id);
      await new Promise((resolve) => setTimeout(resolve, 1));
      return id > 0;
    }, "id must be positive"),
  });
  const bytes = new Uint8Array([...pack({ id: 1 }), ...pack({ id: 2 }), ...pack({ id: -3 })]);

  test("a synchronous unpackAs refuses a schema that answers with a promise: TypeError", () => {
    assert.throws(() => unpackr.unpackAs(Positive, pack({ id: 1 })), (error) => {
      assert.ok(error instanceof TypeError);
      assert.ok(!(error instanceof ValidationError));
      assert.match(
        error.message,
        /^Cannot validate synchronously: the zod schema answered with a promise/,
      );
      return true;
    });
  });

  test("a synchronous decodeIter refuses it too", () => {
    assert.throws(() => [...decodeIter([bytes], { ...STREAM, schema: Positive })], {
      name: "TypeError",
      message: /Cannot validate synchronously/,
    });
  });

  test("decodeIter over an async source awaits them, in order", async () => {
    checked.length = 0;
    const seen: unknown[] = [];
    await assert.rejects(async () => {
      for await (
        const row of decodeIter(ReadableStream.from([bytes]), { ...STREAM, schema: Positive })
      ) {
        seen.push(row);
      }
    }, (error) => {
      assert.ok(error instanceof ValidationError);
      assert.equal(error.index, 2);
      assert.equal(error.message, "Invalid value (index 2) at $.id: id must be positive");
      return true;
    });
    assert.deepEqual(seen, [{ id: 1 }, { id: 2 }]);
    assert.deepEqual([...new Set(checked)], [1, 2, -3]);
  });

  test("UnpackrStream awaits them, in order, whatever the chunking", async () => {
    for (const size of [1, 4, bytes.length]) {
      const stream = ReadableStream.from(chunksOf(bytes, size))
        .pipeThrough(new UnpackrStream({ ...STREAM, schema: Positive }));
      const seen: unknown[] = [];
      await assert.rejects(async () => {
        for await (const row of stream) seen.push(row);
      }, { name: "ValidationError", index: 2 });
      assert.deepEqual(seen, [{ id: 1 }, { id: 2 }], `chunks of ${size}`);
    }
  });
});

describe("messages, issues and options", () => {
  test("paths are rendered from the first issue: $.items[2].qty, odd keys, the root", () => {
    const Order = z.object({ items: z.array(z.object({ qty: z.number() })) });
    const bad = pack({ items: [{ qty: 1 }, { qty: 2 }, { qty: "3" }] });
    assert.throws(() => unpackr.unpackAs(Order, bad), (error) => {
      assert.ok(error instanceof ValidationError);
      assert.match(error.message, /^Invalid value at \$\.items\[2\]\.qty: /);
      assert.deepEqual(keys(error.issues[0]), ["items", 2, "qty"]);
      return true;
    });
    assert.throws(
      () => unpackr.unpackAs(z.object({ "odd key": z.number() }), pack({ "odd key": "x" })),
      { message: /^Invalid value at \$\["odd key"\]: / },
    );
    assert.throws(() => unpackr.unpackAs(z.number(), pack("x")), {
      message: /^Invalid value at \$: /,
    });
    // valibot's path segments are objects with a key; arktype's are keys
    const nested = pack({ user: { age: "x" } });
    for (
      const schema of [
        v.object({ user: v.object({ age: v.number() }) }),
        type({ user: { age: "number" } }),
      ]
    ) {
      assert.throws(() => unpackr.unpackAs(schema, nested), {
        message: /^Invalid value at \$\.user\.age: /,
      });
    }
  });

  test("every issue is kept; the message counts the others", () => {
    const Order = z.object({ id: z.number(), name: z.string(), qty: z.number() });
    assert.throws(() => unpackr.unpackAs(Order, pack({ id: "x", name: 1, qty: 2 })), (error) => {
      assert.ok(error instanceof ValidationError);
      assert.equal(error.issues.length, 2);
      assert.deepEqual(error.issues.map(keys), [["id"], ["name"]]);
      assert.match(error.message, /^Invalid value at \$\.id: .* \(and 1 more issue\)$/);
      return true;
    });
  });

  test("a schema option that is not a Standard Schema v1 is a TypeError", () => {
    for (const schema of [{}, { "~standard": { version: 2, validate() {} } }, z.number]) {
      assert.throws(
        () => unpackr.unpackAs(schema as unknown as StandardSchemaV1, pack(1)),
        { name: "TypeError", message: /^Cannot use schema: expected a Standard Schema v1/ },
      );
      assert.throws(
        () => new UnpackrStream({ schema: schema as unknown as StandardSchemaV1 }),
        { name: "TypeError" },
      );
    }
  });

  test("a decode error still comes after the outputs of the values before it", async () => {
    const bytes = new Uint8Array([...pack({ id: 1 }), 0x92, 0x01]); // then a truncated array
    const stream = ReadableStream.from([bytes])
      .pipeThrough(new UnpackrStream({ ...STREAM, schema: z.object({ id: z.number() }) }));
    const seen: unknown[] = [];
    await assert.rejects(async () => {
      for await (const row of stream) seen.push(row);
    }, (error) => error instanceof IncompleteDataError);
    assert.deepEqual(seen, [{ id: 1 }]);
  });

  test("every entry exports the same ValidationError", () => {
    assert.equal(FromUnpack, ValidationError);
    assert.equal(FromStream, ValidationError);
    assert.equal(FromNoEval, ValidationError);
  });

  test("the results are typed as the schema's output", () => {
    const Order = z.object({ id: z.number(), at: z.string().transform((text) => new Date(text)) });
    type Order = { id: number; at: Date };
    const one = unpackr.unpackAs(Order, pack({ id: 1, at: "2026-01-02T00:00:00Z" }));
    const typed: Equal<typeof one, Order> = true;
    const sync = decodeIter([pack({ id: 1, at: "2026-01-02" })], { ...STREAM, schema: Order });
    const syncTyped: Equal<typeof sync, Generator<Order, void, undefined>> = true;
    const stream = new UnpackrStream({ ...STREAM, schema: Order });
    const streamTyped: Equal<typeof stream, UnpackrStream<Order>> = true;
    const Measured = v.object({ name: v.pipe(v.string(), v.transform((name) => name.length)) });
    const valibot = unpackr.unpackAs(Measured, pack({ name: "ann" }));
    const valibotTyped: Equal<typeof valibot, { name: number }> = true;
    const arktype = unpackr.unpackAs(type({ id: "number" }), pack({ id: 1 }));
    const arktypeTyped: Equal<typeof arktype, { id: number }> = true;
    assert.ok(typed && syncTyped && streamTyped && valibotTyped && arktypeTyped);
    assert.ok(one.at instanceof Date);
    assert.equal(valibot.name, 3);
    sync.return();
  });
});
