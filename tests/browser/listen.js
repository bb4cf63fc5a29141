// Copyright 2026 the @x/msgpackr authors. MIT license.
// Loaded as a classic script before the page's module, so it sees every Content-Security-Policy
// violation of the page, including any raised while the bundle loads.

/** @type {{ directive: string, blockedURI: string, sample: string, source: string }[]} */
const violations = [];
/** @type {string[]} */
const errors = [];
Object.assign(globalThis, { __violations: violations, __errors: errors });

document.addEventListener("securitypolicyviolation", (event) => {
  violations.push({
    directive: event.effectiveDirective || event.violatedDirective,
    blockedURI: event.blockedURI,
    sample: event.sample,
    source: `${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
  });
});
addEventListener("error", (event) => errors.push(`error: ${event.message}`));
addEventListener("unhandledrejection", (event) => errors.push(`unhandled: ${event.reason}`));
