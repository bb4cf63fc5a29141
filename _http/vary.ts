// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The `Vary` header of a negotiated reply (RFC 9110, section 12.5.5).

/**
 * Adds a field name to the `Vary` header unless it is there already (in any case) or `Vary` is
 * `*`.
 *
 * @param headers The response's headers.
 * @param field The request header the reply depends on (`Accept`, `Accept-Encoding`).
 */
export function addVary(headers: Headers, field: string): void {
  const vary = headers.get("vary");
  if (vary === null || vary.trim() === "") {
    headers.set("vary", field);
    return;
  }
  const lower = field.toLowerCase();
  for (const listed of vary.split(",")) {
    const name = listed.trim().toLowerCase();
    if (name === lower || name === "*") return;
  }
  headers.set("vary", `${vary}, ${field}`);
}
