// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The `schema` option of the stream decoders (and of `readBodyValues` and `fetchValues`): each
// value is validated in order, as it is decoded, and the first that fails ends the stream with
// the error its issues make, naming its index; the values before it are delivered first.

import {
  invalidValue,
  type IssuesError,
  type StandardSchemaV1,
  validateAsync,
  validateSync,
} from "../_core/standard_schema.ts";
import type { MessagePackSource } from "../_decode/unpack.ts";
import { chunkBytes, type ChunkDecoder } from "./chunk_decoder.ts";
import { errorWhenDrained } from "./drain.ts";

/**
 * The outputs of the values of a synchronous sequence, validated one by one (a schema that
 * answers with a promise is a `TypeError`). Stopping, or a failure, closes `values`.
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

/**
 * The transformer of an `UnpackrStream` with a schema: decodes each chunk as the plain stream
 * does, then validates the values it completed in order (waiting for a schema that answers with
 * a promise) and enqueues their outputs. The first value that fails errors the stream with its
 * {@linkcode ValidationError}, after the outputs before it are read; a decode error comes after
 * the outputs of the values decoded before it.
 *
 * @param decoder The stream's chunk decoder.
 * @param standard The schema's `~standard` properties.
 * @returns The transformer.
 */
export function validatingTransformer<T>(
  decoder: ChunkDecoder,
  standard: StandardSchemaV1.Props,
): Transformer<MessagePackSource, T> {
  const values: unknown[] = [];
  let index = 0;
  const deliver = async (
    controller: TransformStreamDefaultController<T>,
    decode: () => void,
  ): Promise<void> => {
    let failure: { error: unknown } | undefined;
    try {
      decode();
    } catch (error) {
      failure = { error };
    }
    try {
      for (let i = 0; i < values.length; i++) {
        controller.enqueue(await validateAsync(standard, values[i], invalidValue, index++) as T);
      }
    } catch (error) {
      failure = { error };
    } finally {
      values.length = 0;
    }
    if (failure !== undefined) await errorWhenDrained(controller, failure.error);
  };
  return {
    transform: (chunk, controller) =>
      deliver(controller, () => decoder.push(chunkBytes(chunk), values)),
    flush: (controller) => deliver(controller, () => decoder.end(values)),
  };
}
