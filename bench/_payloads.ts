// Copyright 2026 the @x/msgpackr authors. MIT license.
// Benchmark payloads: the testdata/ sample files and generated ones (deterministic).

import { readFileSync } from "node:fs";
// the tests' deterministic generator (mulberry32): every run packs the same data
import { random } from "../tests/_util.ts";

/** A benchmark payload. `json` is false when JSON cannot represent it (binary). */
export interface Payload {
  name: string;
  value: unknown;
  json: boolean;
}

/** A file of testdata/, parsed. */
export function testdataFile(name: string): unknown {
  const url = new URL(`../testdata/${name}`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8"));
}

const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"];
const FINISHES = ["brushed steel", "matte black", "polished brass", "oiled walnut", "white enamel"];
const USES = ["indoor use", "outdoor use", "workshops", "kitchens", "daily carry"];

/**
 * A ~5 KB service response (5.0 KB packed, 5.7 KB as JSON): an order with 20 line items, each
 * with a sentence of description and an image address, as a shop's API returns them.
 */
function serviceResponse(): unknown {
  const rnd = random(1);
  return {
    id: "ord_8f3a2c19",
    status: "confirmed",
    createdAt: "2026-11-21T08:23:00.000Z",
    customer: { id: 48213, name: "Ada Lovelace", email: "ada@example.com", vip: true },
    currency: "EUR",
    items: Array.from({ length: 20 }, (_, i) => lineItem(i, rnd)),
    totals: { net: 1234.56, tax: 234.57, gross: 1469.13 },
    shipping: {
      method: "express",
      address: { line1: "12 Analytical St", city: "London", zip: "EC1A 1BB" },
    },
  };
}

/** Line item `i` of the service response (about 250 bytes as JSON). */
function lineItem(i: number, rnd: () => number): Record<string, unknown> {
  const word = WORDS[i % WORDS.length];
  const title = word[0].toUpperCase() + word.slice(1);
  const finish = FINISHES[i % FINISHES.length];
  const use = USES[(i * 3) % USES.length];
  const sku = `SKU-${10000 + i}`;
  return {
    sku,
    name: `${word} widget ${i}`,
    description: `${title} widget ${i} in ${finish}, rated for ${use}.`,
    imageUrl: `https://cdn.example.com/products/${sku}/main.jpg`,
    quantity: 1 + Math.floor(rnd() * 5),
    unitPrice: Math.round(rnd() * 10000) / 100,
    discount: i % 3 === 0 ? 0.1 : 0,
    tags: [WORDS[(i + 1) % WORDS.length], WORDS[(i + 2) % WORDS.length]],
    inStock: rnd() > 0.2,
  };
}

/** 1,000 homogeneous log events. */
function logEvents(): unknown {
  const rnd = random(2);
  const levels = ["debug", "info", "warn", "error"];
  return Array.from({ length: 1000 }, (_, i) => ({
    ts: 1763700000000 + i * 137,
    level: levels[Math.floor(rnd() * 4)],
    service: "checkout",
    host: `web-${i % 8}`,
    msg: `request ${i} handled`,
    durationMs: Math.round(rnd() * 5000) / 10,
    status: rnd() > 0.9 ? 500 : 200,
    userId: Math.floor(rnd() * 100000),
  }));
}

/** Numeric arrays: integers of mixed widths and doubles. */
function numericArrays(): unknown {
  const rnd = random(3);
  return {
    ints: Array.from({ length: 5000 }, () => Math.floor(rnd() * 2 ** (1 + Math.floor(rnd() * 31)))),
    floats: Array.from({ length: 5000 }, () => rnd() * 1000 - 500),
    small: Array.from({ length: 5000 }, () => Math.floor(rnd() * 100)),
  };
}

/** Unicode-heavy text: CJK, Cyrillic, accented Latin and emoji in short and long strings. */
function unicodeText(): unknown {
  const rnd = random(4);
  const samples = [
    "東京都渋谷区神南一丁目",
    "Привет, как дела? Всё хорошо.",
    "Ça coûte 12 € — très cher, señor!",
    "😀🚀✨ emoji mixed with text 🎉",
    "가나다라마바사아자차카타파하",
    "مرحبا بالعالم",
  ];
  return Array.from({ length: 300 }, (_, i) => ({
    id: i,
    title: samples[i % samples.length],
    body: Array.from(
      { length: 1 + Math.floor(rnd() * 6) },
      (_, j) => samples[(i + j) % samples.length],
    )
      .join(" "),
    author: samples[(i + 3) % samples.length].slice(0, 6),
  }));
}

/**
 * One small RPC message (~160 bytes as a plain map): what a service sends and receives most, so
 * each pack and unpack is mostly the fixed cost of a call (its output buffer, its setup).
 */
function smallMessage(): unknown {
  return {
    id: 18231,
    method: "orders.update",
    params: {
      orderId: "ord_8f14e45fceea167a",
      status: "shipped",
      amount: 149.95,
      currency: "EUR",
      note: "left at the front door, with the neighbour",
    },
  };
}

/** Binary blobs: 16 records each with a 64 KiB byte array. */
function binaryBlobs(): unknown {
  const rnd = random(5);
  return Array.from({ length: 16 }, (_, i) => {
    const data = new Uint8Array(65536);
    for (let j = 0; j < data.length; j++) data[j] = (rnd() * 256) | 0;
    return { id: i, name: `blob-${i}.bin`, data };
  });
}

/** Every payload, by name. */
export function payloads(): Payload[] {
  return [
    { name: "example4.json", value: testdataFile("example4.json"), json: true },
    { name: "sample-large.json", value: testdataFile("sample-large.json"), json: true },
    { name: "strings2.json", value: testdataFile("strings2.json"), json: true },
    { name: "service response (20 items)", value: serviceResponse(), json: true },
    { name: "small RPC message", value: smallMessage(), json: true },
    { name: "1,000 log events", value: logEvents(), json: true },
    { name: "numeric arrays", value: numericArrays(), json: true },
    { name: "unicode text", value: unicodeText(), json: true },
    { name: "binary blobs (16 × 64 KiB)", value: binaryBlobs(), json: false },
  ];
}
