// Copyright 2026 the @x/msgpackr authors. MIT license.
// Encoders and decoders are isolated: instances with different options and structures used
// interleaved (in any order, inside each other's extension callbacks, and from async streams with
// awaits between chunks) produce exactly the bytes and values each produces alone.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  addExtension,
  FLOAT32_OPTIONS,
  pack,
  Packr,
  type PackrOptions,
  PackrStream,
  Unpackr,
  UnpackrStream,
} from "../mod.ts";
import { toHex, valuesDiffer } from "../fuzz/_fuzz.ts";
import { EAGER_VIEW_MIN_INPUT } from "../_core/thresholds.ts";

/** Values that exercise every option: repeated shapes, floats, long strings, shared objects. */
function sampleValues(): unknown[] {
  const shared = { id: 7, tags: ["x", "y"] };
  return [
    { id: 1, name: "first", score: 1.25 },
    { id: 2, name: "second", score: 0.1, extra: true },
    [{ id: 3, name: "third", score: 3.3 }, { id: 4, name: "fourth", score: -4.75 }],
    "a string long enough to be bundled",
    { nested: { id: 5, name: "fifth", score: 5.5 }, list: [shared, shared] },
    new Map<unknown, unknown>([["k", 1], [2, { id: 6 }]]),
    [1.1, 2.2, 3.3, 1e300, -0.5, 123456.789],
    { other: "shape", with: ["strings", "strings", "más texto"], count: 99 },
    new Date(1700000000123),
    { id: 8, name: "eighth", score: 8 },
  ];
}

/**
 * Option sets that write different bytes for the same values. Each call returns a new options
 * object (with new structures arrays); a packer and its decoders share one such object.
 */
const CONFIGS: [string, () => PackrOptions][] = [
  ["plain", () => ({ useRecords: false })],
  ["records", () => ({})],
  ["structures (one-byte ids)", () => ({ structures: [] })],
  [
    "other structures (two-byte ids)",
    () => ({ structures: [["unrelated"], ["keys", "here"]], maxSharedStructures: 100 }),
  ],
  ["float32", () => ({ useFloat32: FLOAT32_OPTIONS.ALWAYS })],
  ["float32 decimal fit", () => ({ useFloat32: FLOAT32_OPTIONS.DECIMAL_FIT, useRecords: false })],
  ["bundleStrings", () => ({ bundleStrings: true })],
  ["structuredClone", () => ({ structuredClone: true })],
  ["sequential", () => ({ sequential: true })],
  ["variableMapSize", () => ({ useRecords: false, variableMapSize: true })],
  ["moreTypes", () => ({ moreTypes: true, useRecords: false })],
];

/** One config's messages for `values`, packed by a fresh Packr alone, and its options. */
interface Packed {
  name: string;
  options: PackrOptions;
  messages: Uint8Array[];
  hex: string[];
}

function packAlone(values: readonly unknown[]): Packed[] {
  return CONFIGS.map(([name, make]) => {
    const options = make();
    const packr = new Packr(options);
    const messages = values.map((value) => packr.pack(value));
    return { name, options, messages, hex: messages.map(toHex) };
  });
}

/** What a fresh decoder of the config (sharing its structures) makes of its messages, in order. */
function decodeAlone(packed: Packed): unknown[] {
  const unpackr = new Unpackr(packed.options);
  return packed.messages.map((bytes) => unpackr.unpack(bytes));
}

/** `schedule` followed by enough round-robin turns for every instance to finish. */
function turns(schedule: readonly number[], instances: number, steps: number): number[] {
  const order = [...schedule];
  for (let round = 0; round < steps; round++) {
    for (let i = 0; i < instances; i++) order.push(i);
  }
  return order;
}

describe("interleaved instances", () => {
  const values = sampleValues();
  const alone = packAlone(values);

  test("Packr.pack() writes the same bytes for each instance whatever the interleaving", () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: CONFIGS.length - 1 }), { maxLength: 120 }), (schedule) => {
        const packrs = CONFIGS.map(([, make]) => new Packr(make()));
        const next = packrs.map(() => 0);
        const written: string[][] = packrs.map(() => []);
        for (const i of turns(schedule, packrs.length, values.length)) {
          if (next[i] < values.length) written[i].push(toHex(packrs[i].pack(values[next[i]++])));
        }
        alone.forEach(({ name, hex }, i) => assert.deepEqual(written[i], hex, name));
      }),
      { numRuns: 100, seed: 99 },
    );
  });

  test("Unpackr.unpack() decodes the same values for each instance whatever the interleaving", () => {
    const expected = alone.map(decodeAlone);
    // the decoded values are the values (as each option set changes them)
    assert.deepEqual(expected[1][0], values[0]);
    assert.deepEqual(expected[8][9], values[9]);
    fc.assert(
      fc.property(fc.array(fc.nat({ max: CONFIGS.length - 1 }), { maxLength: 120 }), (schedule) => {
        const decoders = alone.map(({ options }) => new Unpackr(options));
        const next = decoders.map(() => 0);
        const decoded: unknown[][] = decoders.map(() => []);
        for (const i of turns(schedule, decoders.length, values.length)) {
          if (next[i] < values.length) {
            decoded[i].push(decoders[i].unpack(alone[i].messages[next[i]++]));
          }
        }
        alone.forEach(({ name }, i) => {
          assert.equal(valuesDiffer(decoded[i], expected[i], { identity: false }), null, name);
        });
      }),
      { numRuns: 100, seed: 100 },
    );
  });

  test("Packr.pack() into useBuffer buffers gives the same bytes when instances interleave", () => {
    const packrs = CONFIGS.map(([, make]) => new Packr(make()));
    packrs.forEach((packr) => packr.useBuffer(new Uint8Array(256)));
    const written: string[][] = packrs.map(() => []);
    for (const value of values) {
      packrs.forEach((packr, i) => written[i].push(toHex(packr.pack(value))));
    }
    alone.forEach(({ name, hex }, i) => assert.deepEqual(written[i], hex, name));
  });
});

class Boxed {
  constructor(readonly value: unknown) {}
}

describe("instances inside each other's extension callbacks", () => {
  const values = sampleValues();
  const alone = packAlone(values);

  for (const [index, { name }] of alone.entries()) {
    test(`Packr.pack() of a ${name} Packr inside another's extension writes the bytes it writes alone`, () => {
      const outerOptions: PackrOptions = name === "records" ? { useRecords: false } : {};
      // reference: the outer Packr alone, given the inner bytes the inner Packr wrote alone
      const outerAlone = new Packr(outerOptions);
      outerAlone.addExtension({
        Class: Boxed,
        type: 40,
        pack: (box: Boxed) => box.value as Uint8Array,
      });

      const inner = new Packr(CONFIGS[index][1]());
      const outer = new Packr(outerOptions);
      let payload: Uint8Array | null = null;
      outer.addExtension({
        Class: Boxed,
        type: 40,
        pack: (box: Boxed) => (payload = inner.pack(box.value)),
      });
      values.forEach((value, i) => {
        // every other value is packed by the inner Packr inside the outer one's callback
        if (i % 2 === 1) {
          assert.equal(toHex(inner.pack(value)), alone[index].hex[i], `${name} value ${i}`);
          return;
        }
        const wrapper = [{ id: i, name: "outer", score: 0.5 }, new Boxed(value)];
        const bytes = outer.pack(wrapper);
        assert.equal(toHex(payload!), alone[index].hex[i], `${name} value ${i} (nested)`);
        const expected = outerAlone.pack([wrapper[0], new Boxed(alone[index].messages[i])]);
        assert.equal(toHex(bytes), toHex(expected), `outer around ${name} value ${i}`);
      });
    });
  }

  test("Packr.pack() inside another's write() callback writes the bytes it writes alone", () => {
    const expected = alone[8].hex; // sequential
    const inner = new Packr({ sequential: true });
    const outer = new Packr({ structures: [] });
    outer.addExtension({
      Class: Boxed,
      type: 41,
      write: (box: Boxed) => inner.pack(box.value),
      read: (data: Uint8Array) => data,
    });
    const got = values.map((value, i) => {
      if (i % 3 === 0) return toHex(inner.pack(value));
      const decoded = outer.unpack(outer.pack({ wrapper: new Boxed(value) })) as {
        wrapper: Uint8Array;
      };
      return toHex(decoded.wrapper);
    });
    assert.deepEqual(got, expected);
  });

  test("Packr saveStructures runs after a pack made inside another instance's extension", () => {
    // alone, a Packr saves its new shared structure right after the pack that made it
    const saved: string[] = [];
    const single = new Packr({
      structures: [],
      saveStructures: (structures) => void saved.push(JSON.stringify(structures)),
    });
    single.pack({ p: 1 });
    assert.deepEqual(saved, ['[["p"]]']);
    // inside another instance's extension the message goes out with the new id as well, so the
    // structure must be saved before that message is used
    const nestedSaved: string[] = [];
    const inner = new Packr({
      structures: [],
      saveStructures: (structures) => void nestedSaved.push(JSON.stringify(structures)),
    });
    const outer = new Packr({ useRecords: false });
    outer.addExtension({ Class: Boxed, type: 42, pack: (box: Boxed) => inner.pack(box.value) });
    outer.pack(new Boxed({ p: 1 }));
    assert.deepEqual(nestedSaved, ['[["p"]]']);
  });

  test("Unpackr({sequential}) keeps definitions from a message decoded inside another's extension", () => {
    const packr = new Packr({ sequential: true });
    const first = packr.pack({ x: 1, y: 2 }); // defines the shape
    const second = packr.pack({ x: 3, y: 4 }); // refers to it
    const single = new Unpackr({ sequential: true });
    assert.deepEqual([single.unpack(first), single.unpack(second)], [{ x: 1, y: 2 }, {
      x: 3,
      y: 4,
    }]);

    const sequential = new Unpackr({ sequential: true });
    const outer = new Unpackr();
    outer.addExtension({ type: 43, unpack: (bytes) => sequential.unpack(bytes) });
    const wrapped = new Uint8Array([0xc7, first.length, 43, ...first]);
    assert.deepEqual(outer.unpack(wrapped), { x: 1, y: 2 });
    assert.deepEqual(sequential.unpack(second), { x: 3, y: 4 });
  });

  test("Unpackr.unpack() inside another's extension decodes as alone and leaves the outer intact", () => {
    for (const packed of alone) {
      if (packed.name === "sequential") continue; // the test above
      const expected = decodeAlone(packed);
      const inner = new Unpackr(packed.options);
      const outer = new Packr();
      outer.addExtension({ type: 44, unpack: (bytes) => inner.unpack(bytes) });
      const decoded = packed.messages.map((bytes, i) => {
        // the outer message defines records of its own around the nested message
        const around = [{ id: i, name: "outer" }, { id: i + 1, name: "outer" }];
        const prefix = outer.pack(around);
        const ext = [0xc8, bytes.length >> 8, bytes.length & 0xff, 44, ...bytes];
        const all = new Uint8Array([0x93, ...prefix.subarray(1), ...ext]);
        const [a, b, value] = outer.unpack(all) as unknown[];
        assert.deepEqual([a, b], around, packed.name);
        return value;
      });
      assert.equal(valuesDiffer(decoded, expected, { identity: false }), null, packed.name);
    }
  });

  test("a decode inside an extension, small or large, leaves the outer's floats and keys right", () => {
    // inputs of EAGER_VIEW_MIN_INPUT bytes or more get a DataView when their decode starts, and
    // these smaller ones (four floats) never make one: the outer decode must get its own view, or
    // none, back
    const value = (tag: number, padding: number) => ({
      x: tag + 0.25,
      name: `item-${tag}`,
      nested: { y: -tag - 0.5, list: [tag + 0.125, 2 ** 40 + tag] },
      pad: "p".repeat(padding),
    });
    for (const innerPadding of [0, EAGER_VIEW_MIN_INPUT]) {
      for (const outerPadding of [0, EAGER_VIEW_MIN_INPUT]) {
        const innerBytes = pack(value(7, innerPadding));
        const options = { mapsAsObjects: true };
        const unpackr = new Unpackr(options);
        unpackr.addExtension({ type: 46, unpack: () => new Unpackr(options).unpack(innerBytes) });
        const before = pack(value(1, outerPadding));
        const after = pack(value(2, 0));
        const all = new Uint8Array([0x93, ...before, 0xd4, 46, 0, ...after]);
        for (let round = 0; round < 3; round++) {
          assert.deepEqual(
            unpackr.unpack(all),
            [value(1, outerPadding), value(7, innerPadding), value(2, 0)],
            `inner padding ${innerPadding}, outer padding ${outerPadding}`,
          );
        }
      }
    }
  });
});

class StreamBoxed {
  constructor(readonly value: unknown) {}
}
/** The Packr the global StreamBoxed extension packs with (swapped per run). */
let streamInner = new Packr({ sequential: true });
addExtension({
  Class: StreamBoxed,
  type: 45,
  pack: (box: StreamBoxed) => streamInner.pack(box.value),
});

describe("async streams", () => {
  /** Collects a stream's chunks. */
  async function drain(stream: ReadableStream<Uint8Array>): Promise<string> {
    let hex = "";
    for await (const chunk of stream) hex += toHex(chunk);
    return hex;
  }

  const values = sampleValues();
  const options: PackrOptions[] = [{}, { useRecords: false }, { bundleStrings: true }, {
    structuredClone: true,
  }, { structures: [] }];
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

  test("PackrStreams with different options, written alternately with awaits, write their bytes alone", async () => {
    const alone: string[] = [];
    for (const option of options) {
      const stream = new PackrStream({ ...option, coalesceBytes: 0 });
      const writer = stream.writable.getWriter();
      const done = drain(stream.readable);
      for (const value of values) await writer.write(value);
      await writer.close();
      alone.push(await done);
    }
    // all streams at once, a value to each in turn, with awaits and other instances in between
    const streams = options.map((option) => new PackrStream({ ...option, coalesceBytes: 0 }));
    const writers = streams.map((stream) => stream.writable.getWriter());
    const outputs = streams.map((stream) => drain(stream.readable));
    const bystander = new Packr({ structures: [] });
    const bystanderAlone = new Packr({ structures: [] });
    const bystanderDecoder = new Unpackr({ sequential: true });
    const bystanderSequential = new Packr({ sequential: true });
    for (const value of values) {
      for (const writer of writers) {
        await writer.write(value);
        await tick();
        assert.equal(toHex(bystander.pack(value)), toHex(bystanderAlone.pack(value)));
        const probe = { probe: toHex(bystanderAlone.pack(value)).length };
        assert.deepEqual(bystanderDecoder.unpack(bystanderSequential.pack(probe)), probe);
      }
    }
    await Promise.all(writers.map((writer) => writer.close()));
    assert.deepEqual(await Promise.all(outputs), alone);
  });

  test("UnpackrStreams fed alternately in 3-byte chunks with awaits decode their values alone", async () => {
    const encoded = options.map((option) => {
      const packr = new Packr({ sequential: option.useRecords !== false, ...option });
      const messages = values.map((value) => packr.pack(value));
      return { option, bytes: new Uint8Array(messages.flatMap((message) => [...message])) };
    });
    const expected = encoded.map(({ option, bytes }) =>
      new Unpackr({ sequential: true, ...option }).unpackMultiple(bytes)
    );
    const streams = encoded.map(({ option }) => new UnpackrStream({ ...option }));
    const writers = streams.map((stream) => stream.writable.getWriter());
    const results = streams.map(async (stream) => {
      const decoded: unknown[] = [];
      for await (const value of stream.readable) decoded.push(value);
      return decoded;
    });
    const longest = Math.max(...encoded.map(({ bytes }) => bytes.length));
    const bystander = new Unpackr({ sequential: true });
    const bystanderPackr = new Packr({ sequential: true });
    for (let offset = 0; offset < longest; offset += 3) {
      for (let i = 0; i < writers.length; i++) {
        const bytes = encoded[i].bytes;
        if (offset < bytes.length) await writers[i].write(bytes.subarray(offset, offset + 3));
        await Promise.resolve();
        const probe = { offset, stream: i };
        assert.deepEqual(bystander.unpack(bystanderPackr.pack(probe)), probe);
      }
    }
    await Promise.all(writers.map((writer) => writer.close()));
    const decoded = await Promise.all(results);
    decoded.forEach((values, i) => {
      assert.equal(valuesDiffer(values, expected[i], { identity: false }), null, String(i));
    });
  });

  test("a PackrStream whose extension packs with another Packr writes the bytes a Packr writes", async () => {
    const boxed = values.map((value, i) => i % 2 === 1 ? new StreamBoxed(value) : value);
    // reference: a plain sequential Packr, synchronously, with a fresh inner Packr
    streamInner = new Packr({ sequential: true });
    const reference = new Packr({ sequential: true });
    const expected = boxed.map((value) => toHex(reference.pack(value))).join("");
    // the stream, with awaits, while other instances pack and decode in between
    streamInner = new Packr({ sequential: true });
    const stream = new PackrStream({ coalesceBytes: 0 });
    const writer = stream.writable.getWriter();
    const output = drain(stream.readable);
    const other = new Packr({ bundleStrings: true, structuredClone: true });
    for (const value of boxed) {
      await writer.write(value);
      await tick();
      const around = { around: values[3], at: boxed.indexOf(value) };
      assert.deepEqual(other.unpack(other.pack(around)), around);
    }
    await writer.close();
    assert.equal(await output, expected);
  });
});
