// Copyright 2026 the @x/msgpackr authors. MIT license.
// Schema fixtures of the validation tests (schema_test.ts, http_schema_test.ts, hono_test.ts,
// elysia_test.ts): the same shapes written with each real schema library (zod, valibot,
// arktype), an issue's path as plain keys, and a compile-time type equality.

import { z } from "zod";
import * as v from "valibot";
import { type } from "arktype";
import type { StandardSchemaV1 } from "../mod.ts";

/** `true` only when A and B are the same type. */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2)
  ? true
  : false;

/** One library's schemas for the same checks. */
export interface Library {
  name: string;
  /** `{ id: number; name: string }`. */
  order: StandardSchemaV1<unknown, { id: number; name: string }>;
  /** `{ id: number; name: string }` whose output `name` is its length. */
  measured: StandardSchemaV1<unknown, { id: number; name: number }>;
}

/** zod, valibot and arktype, each with the schemas of {@link Library}. */
export const LIBRARIES: readonly Library[] = [
  {
    name: "zod",
    order: z.object({ id: z.number(), name: z.string() }),
    measured: z.object({ id: z.number(), name: z.string().transform((name) => name.length) }),
  },
  {
    name: "valibot",
    order: v.object({ id: v.number(), name: v.string() }),
    measured: v.object({
      id: v.number(),
      name: v.pipe(v.string(), v.transform((name) => name.length)),
    }),
  },
  {
    name: "arktype",
    order: type({ id: "number", name: "string" }),
    measured: type({ id: "number", name: type("string").pipe((name) => name.length) }),
  },
];

/** An issue's path as plain keys (valibot gives `{ key }` objects, zod and arktype keys). */
export function keys(issue: StandardSchemaV1.Issue | undefined): PropertyKey[] {
  // arktype's path is an array of its own class: a plain copy
  return Array.from(
    issue?.path ?? [],
    (segment) => typeof segment === "object" && segment !== null ? segment.key : segment,
  );
}
