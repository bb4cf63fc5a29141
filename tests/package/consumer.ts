// Copyright 2026 the @x/msgpackr authors. MIT license.
// A TypeScript user of the npm package: type-checked by tests/package/run.ts with `tsc` against
// the installed .d.ts files (and run by Bun), and by `deno check` against the sources.

import {
  DecodeError,
  pack,
  Packr,
  type PackrOptions,
  type Structure,
  unpack,
  Unpackr,
  type UnpackrOptions,
} from "@x/msgpackr";
import { pack as packOnly } from "@x/msgpackr/pack";
import { unpack as unpackOnly } from "@x/msgpackr/unpack";
import { PackrStream, UnpackrStream } from "@x/msgpackr/stream";
import { Packr as NoEvalPackr } from "@x/msgpackr/no-eval";
import { HttpError, negotiate, respond } from "@x/msgpackr/http";

interface User {
  id: number;
  name: string;
}

const bytes: Uint8Array = pack({ id: 1, name: "ann" } satisfies User);
const user = unpack(bytes) as User;
const structures: Structure[] = [];
const options: PackrOptions = { structures, useRecords: true, sequential: false };
const decoding: UnpackrOptions = { structures, mapsAsObjects: true };
const packr = new Packr(options);
const unpackr: Unpackr = new Unpackr(decoding);
const copy = unpackr.unpack(packr.pack(user)) as User;
const viaEntries = unpackOnly(packOnly(copy)) as User;
const noEvalCopy = new NoEvalPackr().unpack(new NoEvalPackr().pack(user)) as User;
const encoder: TransformStream<unknown, Uint8Array> = new PackrStream();
const decoder: TransformStream<Uint8Array, unknown> = new UnpackrStream();
const error: SyntaxError = new DecodeError("Unexpected byte", 0);
const response: Response = respond(new Request("http://localhost/"), user);
const status: number = new HttpError(415, "Unsupported Content-Type").status;

// the declarations are real types, not `any`:
// @ts-expect-error: unknown option names are type errors
new Packr({ notAnOption: true });
// @ts-expect-error: pack() returns a Uint8Array
const text: string = pack(1);

if (
  copy.name !== "ann" || viaEntries.id !== 1 || noEvalCopy.id !== 1 || status !== 415 ||
  response.headers.get("content-type") !== negotiate(null)
) {
  throw new Error("Round trip failed");
}
console.log(
  `consumer.ts: ${user.name} ${typeof encoder} ${typeof decoder} ${error.name} ${typeof text}`,
);
