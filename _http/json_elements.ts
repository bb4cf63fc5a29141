// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The `arrayElements` option for JSON bodies: the elements of a top-level JSON array, each
// parsed as soon as its text is complete, so a streamed JSON array (as `respond` writes with
// `arrayLength`) is read element by element, holding one element's text at a time. The text is
// followed once, character by character, outside strings and inside them by jumps to the next
// quote or backslash: an element ends at a `,` or the closing `]` outside strings and nested
// brackets, and is parsed by `JSON.parse`, which judges it (an empty element, as in `[1,]`, is a
// `SyntaxError`). A body that is not an array is parsed whole at its end and delivered as it is.

/** Before the first character that is not white space. */
const START = 0;
/** Inside the top-level array. */
const ELEMENTS = 1;
/** After the array's `]`: only white space may follow. */
const AFTER = 2;
/** A body that is not an array: kept whole, parsed at the end. */
const WHOLE = 3;

/** JSON's white space. */
const SPACE = /^[ \t\n\r]*$/;
/** A quote or a backslash: what ends a run of string characters. */
const STRING_STOP = /["\\]/g;

/** Reads the elements of a JSON array from its text, piece by piece. */
export class JsonElements {
  readonly #maxLength: number;
  readonly #tooLong: () => Error;
  #state = START;
  /** The text not yet consumed: the element being read begins at 0. */
  #text = "";
  /** Where the scan resumes in `#text`. */
  #pos = 0;
  /** Brackets and braces open inside the element. */
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** No element has ended yet (`[]` is then an empty array). */
  #first = true;

  /**
   * Creates a reader.
   *
   * @param maxLength Most UTF-16 units of one element (of the body, when it is not an array).
   * @param tooLong Makes the error for an element over it.
   */
  constructor(maxLength: number, tooLong: () => Error) {
    this.#maxLength = maxLength;
    this.#tooLong = tooLong;
  }

  /**
   * Reads the next piece of the text.
   *
   * @param piece The text.
   * @returns The elements it completes, in order.
   */
  push(piece: string): unknown[] {
    const out: unknown[] = [];
    let text = this.#text + piece;
    let pos = this.#pos;
    if (this.#state === START) {
      const at = text.search(/[^ \t\n\r]/);
      if (at === -1) {
        this.#text = text;
        this.#pos = text.length;
        return out;
      }
      if (text[at] === "[") {
        this.#state = ELEMENTS;
        text = text.slice(at + 1);
        pos = 0;
      } else {
        this.#state = WHOLE;
      }
    }
    if (this.#state === AFTER) {
      if (!SPACE.test(text)) throw new SyntaxError("Unexpected text after the JSON array");
      text = "";
      pos = 0;
    } else if (this.#state === ELEMENTS) {
      let start = 0;
      const length = text.length;
      let depth = this.#depth;
      let inString = this.#inString;
      let escaped = this.#escaped;
      while (pos < length) {
        if (inString) {
          if (escaped) {
            escaped = false;
            pos++;
            continue;
          }
          STRING_STOP.lastIndex = pos;
          const stop = STRING_STOP.exec(text);
          if (stop === null) {
            pos = length;
            break;
          }
          pos = stop.index + 1;
          if (text.charCodeAt(stop.index) === 0x5c) escaped = true;
          else inString = false;
          continue;
        }
        const code = text.charCodeAt(pos++);
        if (code === 0x22) inString = true;
        else if (code === 0x5b || code === 0x7b) depth++;
        else if (depth > 0) {
          if (code === 0x5d || code === 0x7d) depth--;
        } else if (code === 0x2c || code === 0x5d) {
          // `,` or the closing `]`: the element is text[start, pos - 1)
          const element = text.slice(start, pos - 1);
          if (element.length > this.#maxLength) throw this.#tooLong();
          if (code === 0x2c || !this.#first || !SPACE.test(element)) {
            out.push(JSON.parse(element));
          }
          this.#first = false;
          start = pos;
          if (code === 0x5d) {
            this.#state = AFTER;
            if (!SPACE.test(text.slice(pos))) {
              throw new SyntaxError("Unexpected text after the JSON array");
            }
            pos = start = length;
            break;
          }
        }
      }
      this.#depth = depth;
      this.#inString = inString;
      this.#escaped = escaped;
      text = text.slice(start);
      pos -= start;
    }
    if (text.length > this.#maxLength) throw this.#tooLong();
    this.#text = text;
    this.#pos = pos;
    return out;
  }

  /**
   * Ends the text.
   *
   * @param piece Its last piece.
   * @returns The elements it completes (the value, for a body that is not an array).
   */
  end(piece: string): unknown[] {
    const out = this.push(piece);
    const state = this.#state;
    if (state === ELEMENTS) throw new SyntaxError("Unexpected end of the JSON array");
    if (state === WHOLE || (state === START && this.#text.length > 0)) {
      out.push(JSON.parse(this.#text));
    }
    this.#text = "";
    return out;
  }
}

/**
 * The values with each array among them replaced by its elements (NDJSON lines read with
 * `arrayElements`).
 *
 * @param values The values.
 * @returns A generator of the values and elements.
 */
export function* arrayElementsOf(values: Iterable<unknown>): Generator<unknown, void, undefined> {
  for (const value of values) {
    if (Array.isArray(value)) yield* value;
    else yield value;
  }
}
