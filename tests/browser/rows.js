// Copyright 2026 the @x/msgpackr authors. MIT license.
// The test records, shared by the test server (which streams them) and the page (which checks
// them): several shapes, nested objects, dates and 64-bit integers.

const CITIES = ["Lisbon", "Oslo", "Kyoto", "Quito"];

/**
 * The test record number `id`.
 *
 * @param {number} id
 * @returns {Record<string, unknown>}
 */
export function row(id) {
  const record = {
    id,
    name: `user ${id}`,
    email: `user${id}@example.com`,
    active: id % 3 === 0,
    score: id / 8,
    tags: id % 2 === 0 ? ["even", "x"] : ["odd"],
    address: { city: CITIES[id % CITIES.length], zip: String(10000 + id) },
    created: new Date(Date.UTC(2024, 0, 1) + id * 3_600_000),
    balance: BigInt(id) * 10_000_000_000n,
  };
  // every tenth record has another shape
  return id % 10 === 0 ? { ...record, note: `note ${id}`, flags: null } : record;
}
