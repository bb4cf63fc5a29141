// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Where the objects the decoder builds by stores start. An engine gives a property to an object
// by following a transition from the object's hidden class to the class with that property. The
// classes of every `{}` hang off one root class, and V8 keeps at most a few thousand transitions
// from a class: once objects with that many different first keys were built from `{}` (a sender's
// random keys, or the application's own), until a full collection frees the classes of the dead
// ones, every object given a property name new there from `{}` gets classes of its own, shared
// with no other object, and building and reading such objects is many times slower.
// JavaScriptCore slows down likewise. So the decoder builds the objects of a shape it knows (a
// record type, a map's key sequence, a pooled builder's shape) from a root of that shape's own,
// `new root()`, whose transitions only that shape adds: what other input fills never reaches
// them. The objects are plain objects in every way a program can see: `Object.prototype` is
// their prototype and `constructor` is `Object`; the function has no name, so the debuggers that
// name an object by the function that made it fall back to its `constructor`, Object.
// Chosen by measurement: npm run bench:hostile:deno / :bun (the load of new shapes).

/** Makes plain objects, `{}` with a hidden class of its own (see above). */
export type PlainRoot = new () => Record<string, unknown>;

/** A new {@linkcode PlainRoot}: objects made by it are `{}`s, their classes its own. */
export function plainRoot(): PlainRoot {
  const root = unnamed();
  root.prototype = Object.prototype;
  return root;
}

/** A function without a name (none is inferred for a returned expression). */
function unnamed(): PlainRoot {
  return function () {} as unknown as PlainRoot;
}
