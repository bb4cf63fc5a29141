// Copyright 2026 the @x/msgpackr authors. MIT license.
// A TypeScript user of the npm package: type-checked by tests/package/run.ts with `tsc` against
// the installed .d.ts files (and run by Bun), and by `deno check` against the sources.

import {
  ALWAYS,
  clearSource,
  DecodeError,
  mapsAsObjects,
  type Options,
  pack,
  Packr,
  type PackrOptions,
  type Structure,
  unpack,
  type UnpackOptions,
  Unpackr,
  type UnpackrOptions,
  useRecords,
} from "@x/msgpackr";
import { pack as packOnly, Unpackr as UnpackrFromPack } from "@x/msgpackr/pack";
import {
  addExtension as addExtensionFromUnpack,
  clearSource as clearSourceFromUnpack,
  unpack as unpackOnly,
} from "@x/msgpackr/unpack";
import {
  decodeIter,
  DecoderStream,
  encodeIter,
  EncoderStream,
  PackrStream,
  UnpackrStream,
} from "@x/msgpackr/stream";
import { Packr as NoEvalPackr } from "@x/msgpackr/no-eval";
import { HttpError, negotiate, readBody, respond, type StandardSchemaV1 } from "@x/msgpackr/http";
// Hono's types only, as a Hono app has them (tests/package/run.ts installs hono for tsc); the
// code below runs with no framework installed
import type { Hono } from "hono";
import { msgpackValidator, reply } from "@x/msgpackr/hono";
import { type ElysiaApp, msgpack } from "@x/msgpackr/elysia";

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

// code written for msgpackr: detached methods, options on the instance, structures
const msgpackrOptions: Options = { structures: [], trusted: true };
const { pack: packDetached, unpack: unpackDetached, decodeMultiple } = new Packr(msgpackrOptions);
const window: UnpackOptions = { start: 0 };
const again = unpackDetached(packDetached(user), window) as User;
const sharedLength: number | undefined = packr.structures.sharedLength;
packr.useFloat32 = ALWAYS;
const assignFixed = () => {
  // @ts-expect-error: read at construction only (and a TypeError at run time)
  packr.useRecords = false;
};
const all: unknown[] = decodeMultiple(pack(1));
clearSource();
clearSourceFromUnpack();
const flags: [false, true] = [useRecords, mapsAsObjects];
const syncChunks: Uint8Array[] = [...encodeIter([1, 2])];
const syncValues: number[] = [...decodeIter<number>(syncChunks)];
const aliases: [EncoderStream, DecoderStream] = [
  new EncoderStream({ packr: new Packr({ sequential: true }) }),
  new DecoderStream({ unpackr: new Unpackr({ sequential: true }) }),
];
if (
  again.id !== 1 || all.length !== 1 || typeof addExtensionFromUnpack !== "function" ||
  !(unpackr instanceof UnpackrFromPack) || flags[1] !== true || sharedLength === undefined ||
  typeof assignFixed !== "function" || syncValues.length !== 2 || aliases.length !== 2
) {
  throw new Error("msgpackr-style code failed");
}

// a schema's output types the decoded values; Hono's c.req.valid("json") is typed by it
const Order: StandardSchemaV1<unknown, { id: number }> = {
  "~standard": {
    version: 1,
    vendor: "consumer",
    validate: (value) =>
      typeof (value as { id?: unknown })?.id === "number"
        ? { value: { id: (value as { id: number }).id } }
        : { issues: [{ message: "id must be a number", path: ["id"] }] },
  },
};
const orderId: Promise<number> = readBody(new Request("http://localhost/"), { schema: Order })
  .then((order) => order.id, () => 0);
const validated: number = unpackr.unpackAs(Order, pack({ id: 3 })).id;
const routes = (app: Hono) =>
  app.post("/", msgpackValidator(Order), (c) => {
    const order: { id: number } = c.req.valid("json");
    return reply(c, order);
  });
const plugin: (app: ElysiaApp) => ElysiaApp = msgpack({ read: { maxBytes: 1024 } });
if (validated !== 3 || typeof routes !== "function" || typeof plugin !== "function") {
  throw new Error("schemas and framework entries failed");
}
void orderId;

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
