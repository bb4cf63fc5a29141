// Copyright 2026 the @x/msgpackr authors. MIT license.
// Property tests (fast-check, fixed seeds, bounded to a few seconds): arbitrary values round-trip
// through every option set to the value each set promises; arbitrary bytes, structure-aware random
// token streams and mutated valid encodings never make any decoder configuration throw anything
// but a well-formed DecodeError, change a built-in prototype, build an object with a foreign
// prototype, run long or grow the heap absurdly; the stream decoder agrees with a whole decode;
// every cut of a valid encoding is an IncompleteDataError. The long-running version of these
// checks is `deno task fuzz <seconds>` (fuzz/fuzz.ts).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { FLOAT32_OPTIONS, IncompleteDataError, pack, Packr, unpack, Unpackr } from "../mod.ts";
import {
  applyMutation,
  checkDecode,
  checkStream,
  checkUnpackrStream,
  decodeTargets,
  type Failure,
  mulberry32,
  mutationArbitrary,
  optionSets,
  prototypeProblem,
  randomTokens,
  toHex,
  valueArbitrary,
  valuesDiffer,
} from "../fuzz/_fuzz.ts";
import { randomDifferentialInput } from "../fuzz/_differential.ts";
import { concatBytes } from "../_core/bytes.ts";
import { fromHex } from "./_util.ts";

const SETS = optionSets();
const TARGETS = decodeTargets();
/** An option set's index and a value that set can encode. */
const setAndValue = fc.nat({ max: SETS.length - 1 }).chain((index) =>
  fc.tuple(fc.constant(index), valueArbitrary(SETS[index].features, 3))
);

function describeFailures(failures: readonly Failure[], bytes: Uint8Array): string {
  return failures.map((failure) => `${failure.target}: ${failure.detail}`).join("\n") +
    `\ninput: ${toHex(bytes)}`;
}

describe("round trips of arbitrary values", () => {
  for (const set of SETS) {
    test(`${set.name} round-trips arbitrary values to the value the option set promises`, () => {
      fc.assert(
        fc.property(valueArbitrary(set.features), (value) => {
          const decoded = set.roundTrip(value);
          const problem = valuesDiffer(decoded, set.expected(value), {
            identity: set.features.references,
          });
          assert.equal(problem, null);
          assert.equal(prototypeProblem(), null);
        }),
        { numRuns: 400, seed: 20260101 },
      );
    });
  }

  test("Packr({sequential}) round-trips a sequence of values decoded in order", () => {
    fc.assert(
      fc.property(
        fc.array(
          valueArbitrary({ mapKeys: "any", moreTypes: false, references: false, c1: true }),
          {
            maxLength: 6,
          },
        ),
        (values) => {
          const packr = new Packr({ sequential: true });
          const unpackr = new Unpackr({ sequential: true });
          const messages = values.map((value) => packr.pack(value));
          messages.forEach((bytes, i) => {
            const expected = SETS[1].expected(values[i]); // the records expectation
            assert.equal(valuesDiffer(unpackr.unpack(bytes), expected, { identity: false }), null);
          });
        },
      ),
      { numRuns: 100, seed: 7 },
    );
  });

  test("Packr({useFloat32: DECIMAL_FIT}) round-trips decimals with up to 6 significant digits exactly", () => {
    const packr = new Packr({ useFloat32: FLOAT32_OPTIONS.DECIMAL_FIT, useRecords: false });
    fc.assert(
      fc.property(
        fc.integer({ min: -999999, max: 999999 }),
        fc.integer({ min: -12, max: 6 }),
        (digits, exponent) => {
          const value = Number(`${digits}e${exponent}`);
          assert.equal(packr.unpack(packr.pack(value)), value);
        },
      ),
      { numRuns: 2000, seed: 11 },
    );
  });
});

describe("decoding hostile bytes", () => {
  test("every decoder configuration rejects arbitrary bytes only with DecodeErrors", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const failures = checkDecode(bytes, TARGETS);
        assert.equal(failures.length, 0, describeFailures(failures, bytes));
      }),
      { numRuns: 700, seed: 1 },
    );
  });

  test("every decoder configuration rejects structure-aware random tokens only with DecodeErrors", () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 8 }), (seed, depth) => {
        const bytes = randomTokens(mulberry32(seed), depth);
        const failures = checkDecode(bytes, TARGETS);
        assert.equal(failures.length, 0, describeFailures(failures, bytes));
      }),
      { numRuns: 700, seed: 2 },
    );
  });

  test("every decoder configuration rejects mutated valid encodings only with DecodeErrors", () => {
    fc.assert(
      fc.property(
        setAndValue,
        fc.array(mutationArbitrary, { minLength: 1, maxLength: 4 }),
        ([index, value], mutations) => {
          let bytes = SETS[index].encode(value);
          for (const mutation of mutations) bytes = applyMutation(bytes, mutation);
          const failures = checkDecode(bytes, TARGETS);
          assert.equal(failures.length, 0, describeFailures(failures, bytes));
        },
      ),
      { numRuns: 700, seed: 3 },
    );
  });

  test("the stream decoder agrees with a whole decode for mutated encodings in any chunking", () => {
    fc.assert(
      fc.property(
        setAndValue,
        fc.array(mutationArbitrary, { maxLength: 3 }),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 4 }),
        ([index, value], mutations, chunkSizes) => {
          let bytes = SETS[index].encode(value);
          for (const mutation of mutations) bytes = applyMutation(bytes, mutation);
          const failure = checkStream(bytes, chunkSizes);
          assert.equal(failure, null, failure ? describeFailures([failure], bytes) : "");
          assert.equal(prototypeProblem(), null);
        },
      ),
      { numRuns: 300, seed: 4 },
    );
  });

  test("the stream decoder delivers exactly what a whole decode delivers, for hostile streams", () => {
    // structure-aware random tokens (often several values, often broken) and mutated msgpackr
    // encodings of every kind, cut at random sizes: the same values, not a prefix, and the same
    // error class at the same offset
    fc.assert(
      fc.property(
        fc.integer(),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 }),
        (seed, tokens, chunkSizes) => {
          const random = mulberry32(seed);
          const bytes = tokens
            ? concatBytes([
              randomTokens(random, 4),
              randomTokens(random, 4),
              randomTokens(random, 3),
            ])
            : randomDifferentialInput(random).bytes;
          const failure = checkStream(bytes, chunkSizes);
          assert.equal(failure, null, failure ? describeFailures([failure], bytes) : "");
        },
      ),
      { numRuns: 3000, seed: 6 },
    );
  });

  test("UnpackrStream delivers exactly what a whole decode delivers, for hostile streams", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer(),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 }),
        async (seed, chunkSizes) => {
          const random = mulberry32(seed);
          const bytes = random() < 0.5
            ? concatBytes([randomTokens(random, 4), randomTokens(random, 3)])
            : randomDifferentialInput(random).bytes;
          const failure = await checkUnpackrStream(bytes, chunkSizes);
          assert.equal(failure, null, failure ? describeFailures([failure], bytes) : "");
        },
      ),
      { numRuns: 600, seed: 8 },
    );
  });

  test("a length beyond maxIncompleteBufferSize is refused by the stream where the whole decode says incomplete", () => {
    // found by fuzz/fuzz.ts: a str32 header promising 3.4 GB inside an array16; the whole decode
    // calls it incomplete, the stream refuses to buffer it (both DecodeErrors), after the same values
    const bytes = fromHex(
      "dc0015cc84cc7bd0dbcc6024d0decc4fcc9f3034cc76cc41cca4cc69ccb7cc7a31cc8929c996f74e9f3926d0dd",
    );
    for (const chunkSizes of [[2, 8, 6], [1], [64]]) {
      assert.equal(checkStream(bytes, chunkSizes), null);
    }
  });

  test("every cut of a valid encoding is an IncompleteDataError, for every stateless option set", () => {
    const codecs: [
      string,
      (value: unknown) => Uint8Array,
      () => { unpack(b: Uint8Array): unknown },
    ][] = [
      ["pack/unpack", (value) => pack(value), () => ({ unpack })],
      ["Packr()", (value) => new Packr().pack(value), () => new Unpackr()],
      [
        "Packr({structuredClone})",
        (value) => new Packr({ structuredClone: true }).pack(value),
        () => new Unpackr(),
      ],
      [
        "Packr({bundleStrings, moreTypes})",
        (value) => new Packr({ bundleStrings: true, moreTypes: true }).pack(value),
        () => new Unpackr(),
      ],
      [
        "Packr({variableMapSize, useRecords: false})",
        (value) => new Packr({ variableMapSize: true, useRecords: false }).pack(value),
        () => new Unpackr({ mapsAsObjects: true }),
      ],
    ];
    const features = { mapKeys: "any", moreTypes: true, references: true, c1: false } as const;
    fc.assert(
      fc.property(
        fc.nat({ max: codecs.length - 1 }),
        valueArbitrary(features, 3),
        (index, value) => {
          const [name, encode, decoder] = codecs[index];
          let bytes: Uint8Array;
          try {
            bytes = encode(value);
          } catch {
            return; // a value this codec cannot write (a cycle without structured clone)
          }
          const unpackr = decoder();
          try {
            unpackr.unpack(bytes);
          } catch {
            return; // a value this decoder cannot read (a Map with object keys as an object)
          }
          for (let cut = 0; cut < bytes.length; cut++) {
            assert.throws(() => unpackr.unpack(bytes.subarray(0, cut)), (error: unknown) => {
              assert.ok(
                error instanceof IncompleteDataError,
                `${name} cut at ${cut} of ${toHex(bytes)}: ${error}`,
              );
              return true;
            });
          }
        },
      ),
      { numRuns: 300, seed: 5 },
    );
  });
});
