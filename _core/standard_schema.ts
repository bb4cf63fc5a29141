// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Validation of decoded values by a Standard Schema (https://standardschema.dev): the interface,
// declared here so that no schema library is a dependency, the error a decoder or client throws,
// and the one validation step every API shares. Zod, Valibot, ArkType and Effect Schema
// implement the interface.

/**
 * A Standard Schema v1 (https://standardschema.dev): any object with a `~standard` property of
 * version 1, as Zod (3.24+), Valibot (1+), ArkType (2+) and Effect Schema make them. Declared
 * here structurally, so no schema library is a dependency; the same shape as the
 * `@standard-schema/spec` package's type of the same name.
 *
 * @typeParam Input What the schema accepts.
 * @typeParam Output What it gives (after its transforms).
 *
 * @example Usage
 * ```ts
 * import { type StandardSchemaV1, Unpackr, pack } from "@x/msgpackr";
 * import { z } from "zod";
 * import assert from "node:assert/strict";
 *
 * const order: StandardSchemaV1<unknown, { id: number }> = z.object({ id: z.number() });
 * type Order = StandardSchemaV1.InferOutput<typeof order>;
 * const value: Order = new Unpackr({ mapsAsObjects: true }).unpackAs(order, pack({ id: 1 }));
 * assert.deepEqual(value, { id: 1 });
 * ```
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The schema's Standard Schema properties. */
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

/**
 * The types of a {@linkcode StandardSchemaV1}: its properties, its results and issues, and
 * `InferInput`/`InferOutput` to name a schema's types.
 *
 * @example Usage
 * ```ts
 * import type { StandardSchemaV1 } from "@x/msgpackr";
 * import * as v from "valibot";
 * import assert from "node:assert/strict";
 *
 * const schema = v.object({ id: v.number() });
 * const issue: StandardSchemaV1.Issue = { message: "Expected number", path: ["id"] };
 * const output: StandardSchemaV1.InferOutput<typeof schema> = { id: 1 };
 * assert.equal(issue.path?.[0], "id");
 * assert.equal(output.id, 1);
 * ```
 */
export declare namespace StandardSchemaV1 {
  /** The properties under `~standard`. */
  export interface Props<Input = unknown, Output = Input> {
    /** The version of the standard: 1. */
    readonly version: 1;
    /** The schema library's name ("zod", "valibot", "arktype", …). */
    readonly vendor: string;
    /** Validates a value: its output, or the issues found; a promise of either when async. */
    readonly validate: (
      value: unknown,
      options?: Options | undefined,
    ) => Result<Output> | Promise<Result<Output>>;
    /** The input and output types, for type inference only. */
    readonly types?: Types<Input, Output> | undefined;
  }
  /** Options a caller may pass to `validate`. */
  export interface Options {
    /** Options of the schema library. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  /** What `validate` gives: the output, or the issues. */
  export type Result<Output> = SuccessResult<Output> | FailureResult;
  /** A valid value: the schema's output. */
  export interface SuccessResult<Output> {
    /** The output (transformed where the schema transforms). */
    readonly value: Output;
    /** No issues. */
    readonly issues?: undefined;
  }
  /** An invalid value: the issues found. */
  export interface FailureResult {
    /** The issues, at least one. */
    readonly issues: ReadonlyArray<Issue>;
  }
  /** One problem with a value. */
  export interface Issue {
    /** What is wrong, in the schema library's words. */
    readonly message: string;
    /** Where: the keys from the value's root to the part that is wrong. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** A step of an issue's path, as an object. */
  export interface PathSegment {
    /** The key. */
    readonly key: PropertyKey;
  }
  /** The input and output types of a schema. */
  export interface Types<Input = unknown, Output = Input> {
    /** What the schema accepts. */
    readonly input: Input;
    /** What it gives. */
    readonly output: Output;
  }
  /** The type a schema accepts. */
  export type InferInput<Schema extends StandardSchemaV1> = NonNullable<
    Schema["~standard"]["types"]
  >["input"];
  /** The type a schema gives. */
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<
    Schema["~standard"]["types"]
  >["output"];
}

/**
 * Thrown when a decoded value does not pass its Standard Schema: by `Unpackr.unpackAs`,
 * `decodeIter`, `UnpackrStream` (the stream errors) and the `schema` option of `fetchValue` and
 * `fetchValues`. Its message names the first issue's path and message
 * (`Invalid value at $.items[2].qty: Expected number, received string`); `issues` has them
 * all, as the schema gave them. In a sequence of values, `index` is the failing value's index
 * (from 0), also named in the message. (On a server, `readBody` and `readBodyValues` throw a
 * 400 `HttpError` instead, with the same `issues` and this error as `cause`.)
 *
 * @example Usage
 * ```ts
 * import { pack, Unpackr, ValidationError } from "@x/msgpackr";
 * import { z } from "zod";
 * import assert from "node:assert/strict";
 *
 * const schema = z.object({ id: z.number() });
 * const unpackr = new Unpackr({ mapsAsObjects: true });
 * assert.throws(() => unpackr.unpackAs(schema, pack({ id: "x" })), (error) => {
 *   assert.ok(error instanceof ValidationError);
 *   assert.match(error.message, /^Invalid value at \$\.id: /);
 *   assert.deepEqual(error.issues[0].path, ["id"]);
 *   return true;
 * });
 * ```
 */
export class ValidationError extends TypeError {
  /** Every issue the schema found, as it gave them. */
  readonly issues: ReadonlyArray<StandardSchemaV1.Issue>;
  /** The index (from 0) of the failing value in a sequence or stream; absent for one value. */
  readonly index?: number;

  /**
   * Creates a validation error.
   *
   * @param issues The schema's issues, at least one.
   * @param index The failing value's index in a sequence, if it is in one.
   * @param subject What was validated, for the message.
   */
  constructor(
    issues: ReadonlyArray<StandardSchemaV1.Issue>,
    index?: number,
    subject: string = "value",
  ) {
    // what failed (and its index in a sequence), where (the first issue's path: `$`, then
    // `.name`, `[2]` or `["odd key"]` per step) and why, and how many other issues there are
    const first = issues[0];
    let path = "$";
    for (const segment of first?.path ?? []) {
      const key = typeof segment === "object" && segment !== null ? segment.key : segment;
      if (typeof key !== "string") path += `[${String(key)}]`;
      else if (/^[A-Za-z_$][\w$]*$/.test(key)) path += `.${key}`;
      else path += `[${JSON.stringify(key)}]`;
    }
    const more = issues.length - 1;
    super(
      `Invalid ${subject}${index === undefined ? "" : ` (index ${index})`} at ${path}: ` +
        (first?.message ?? "invalid") +
        (more > 0 ? ` (and ${more} more issue${more === 1 ? "" : "s"})` : ""),
    );
    this.name = "ValidationError";
    this.issues = issues;
    if (index !== undefined) this.index = index;
  }
}

/**
 * Checks that an option is a Standard Schema v1.
 *
 * @param schema The option's value.
 * @returns Its `~standard` properties.
 */
export function standardOf(schema: unknown): StandardSchemaV1.Props {
  const standard = (schema as { "~standard"?: Partial<StandardSchemaV1.Props> } | null)
    ?.["~standard"];
  if (typeof standard?.validate !== "function" || standard.version !== 1) {
    throw new TypeError("Cannot use schema: expected a Standard Schema v1");
  }
  return standard as StandardSchemaV1.Props;
}

/** The errors a validation fails with, made from the issues and the value's index. */
export type IssuesError = (
  issues: ReadonlyArray<StandardSchemaV1.Issue>,
  index: number | undefined,
) => Error;

/** The decoders' and clients' error: a {@linkcode ValidationError}. */
export const invalidValue: IssuesError = (issues, index) => new ValidationError(issues, index);

/**
 * Validates a value synchronously: the schema's output, or the error `fail` makes of its
 * issues. A schema that answers with a promise (an async refinement) is a `TypeError`, as a
 * synchronous API cannot wait for it.
 *
 * @param standard The schema's `~standard` properties ({@linkcode standardOf}).
 * @param value The decoded value.
 * @param fail Makes the error for issues.
 * @param index The value's index in a sequence, if it is in one.
 * @returns The output.
 */
export function validateSync(
  standard: StandardSchemaV1.Props,
  value: unknown,
  fail: IssuesError = invalidValue,
  index?: number,
): unknown {
  const result = standard.validate(value);
  if ("then" in result) {
    // nobody waits for it: keep its rejection, if any, from being reported as unhandled
    result.then(undefined, () => {});
    throw new TypeError(
      `Cannot validate synchronously: the ${standard.vendor} schema answered with a promise ` +
        "(async checks need an async API)",
    );
  }
  if (result.issues !== undefined) throw fail(result.issues, index);
  return result.value;
}

/**
 * Validates a value, waiting for a schema that answers with a promise: the schema's output, or
 * the error `fail` makes of its issues.
 *
 * @param standard The schema's `~standard` properties ({@linkcode standardOf}).
 * @param value The decoded value.
 * @param fail Makes the error for issues.
 * @param index The value's index in a sequence, if it is in one.
 * @returns The output.
 */
export async function validateAsync(
  standard: StandardSchemaV1.Props,
  value: unknown,
  fail: IssuesError = invalidValue,
  index?: number,
): Promise<unknown> {
  const result = await standard.validate(value);
  if (result.issues !== undefined) throw fail(result.issues, index);
  return result.value;
}

/**
 * The outputs of the values of a synchronous sequence, validated one by one (a schema that
 * answers with a promise is a `TypeError`), the failing one's error naming its index. Stopping,
 * or a failure, closes `values`.
 *
 * @param values The decoded values.
 * @param standard The schema's `~standard` properties.
 * @param fail Makes the error for a value's issues.
 * @returns A generator of the outputs.
 */
export function* validatedSync<T>(
  values: Iterable<unknown>,
  standard: StandardSchemaV1.Props,
  fail: IssuesError = invalidValue,
): Generator<T, void, undefined> {
  let index = 0;
  for (const value of values) yield validateSync(standard, value, fail, index++) as T;
}

/**
 * The outputs of the values of an async sequence, validated one by one, each awaited when the
 * schema answers with a promise. Stopping, or a failure, closes `values`.
 *
 * @param values The decoded values.
 * @param standard The schema's `~standard` properties.
 * @param fail Makes the error for a value's issues.
 * @returns An async generator of the outputs.
 */
export async function* validatedAsync<T>(
  values: AsyncIterable<unknown>,
  standard: StandardSchemaV1.Props,
  fail: IssuesError = invalidValue,
): AsyncGenerator<T, void, undefined> {
  let index = 0;
  for await (const value of values) yield await validateAsync(standard, value, fail, index++) as T;
}
