// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The `schema` option on both sides of HTTP. A server's body that fails its schema is the
// client's fault: a 400 `HttpError` with the issues (and the `ValidationError` as `cause`), so
// the handler answers it as it answers a malformed body. A client's response that fails is a
// `ValidationError`: the server answered, with something else than the client expects.

import {
  type IssuesError,
  standardOf,
  type StandardSchemaV1,
  validateAsync,
  validatedAsync,
  ValidationError,
} from "../_core/standard_schema.ts";
import { HttpError } from "./http_error.ts";

/** A body, or a value of a body, that fails its schema: a 400 with the issues. */
const invalidBody: IssuesError = (issues, index) => {
  const cause = new ValidationError(issues, index, index === undefined ? "body" : "body value");
  return new HttpError(400, cause.message, { cause, issues });
};

/** A response, or a value of a streamed response, that fails its schema. */
const invalidResponse: IssuesError = (issues, index) =>
  new ValidationError(issues, index, index === undefined ? "response" : "response value");

/**
 * Validates a body read whole: its output, or with `multiple` the outputs of its values, each
 * validated in order (a failure names its index).
 *
 * @param schema The `schema` option.
 * @param value The decoded body (an array of its values with `multiple`).
 * @param multiple Whether `value` holds the values of a sequence.
 * @returns The output(s).
 */
export async function validateBody(
  schema: StandardSchemaV1,
  value: unknown,
  multiple: boolean,
): Promise<unknown> {
  const standard = standardOf(schema);
  if (!multiple) return await validateAsync(standard, value, invalidBody);
  const values = value as unknown[];
  const outputs: unknown[] = [];
  for (let i = 0; i < values.length; i++) {
    outputs.push(await validateAsync(standard, values[i], invalidBody, i));
  }
  return outputs;
}

/**
 * The outputs of the values of a body read as they arrive, validated in order; the first that
 * fails ends them with a 400 naming its index.
 *
 * @param values The decoded values.
 * @param schema The `schema` option.
 * @returns An async generator of the outputs.
 */
export function validatedBodyValues<T>(
  values: AsyncIterable<unknown>,
  schema: StandardSchemaV1,
): AsyncGenerator<T, void, undefined> {
  return validatedAsync<T>(values, standardOf(schema), invalidBody);
}

/**
 * Validates a response's value (`undefined` for one without content): its output, or a
 * `ValidationError`.
 *
 * @param standard The `schema` option's `~standard` properties.
 * @param value The decoded response.
 * @returns The output.
 */
export function validateResponse(
  standard: StandardSchemaV1.Props,
  value: unknown,
): Promise<unknown> {
  return validateAsync(standard, value, invalidResponse);
}

/**
 * The outputs of the values of a streamed response, validated in order; the first that fails
 * ends them with a `ValidationError` naming its index.
 *
 * @param values The decoded values.
 * @param schema The `schema` option.
 * @returns An async generator of the outputs.
 */
export function validatedResponseValues<T>(
  values: AsyncIterable<unknown>,
  schema: StandardSchemaV1,
): AsyncGenerator<T, void, undefined> {
  return validatedAsync<T>(values, standardOf(schema), invalidResponse);
}
