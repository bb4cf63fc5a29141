// Copyright 2026 the @x/msgpackr authors. MIT license.

/**
 * Checks the JSDoc of everything the entry modules export (from `deno doc --json`), beyond
 * what `deno doc --lint` checks:
 *
 * - every exported symbol has a summary and a runnable `@example` (a code block that imports
 *   from "@x/msgpackr", so `deno test --doc` runs it);
 * - every exported function (each overload signature) has `@param` for each parameter and
 *   `@returns` unless it returns `void`;
 * - every public constructor and method has a summary, `@param` for each parameter and
 *   `@returns` unless it returns `void`; every public property and interface member has a
 *   summary.
 *
 * With `--members`, public methods without an `@example` are reported too.
 *
 * Run with `deno run -A scripts/check_docs.ts [--members]`. Prints one line per problem and
 * exits non-zero if there is any.
 *
 * @module
 */

const root = new URL("../", import.meta.url);
const denoJson = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
const entries: string[] = Object.values(denoJson.exports as Record<string, string>);
const membersNeedExamples = Deno.args.includes("--members");

interface Tag {
  kind: string;
  name?: string;
  doc?: string;
}
interface JsDoc {
  doc?: string;
  tags?: Tag[];
}
interface Param {
  kind: string;
  name?: string;
  left?: Param;
  arg?: Param;
}
interface FunctionDef {
  params: Param[];
  returnType?: { repr?: string; kind?: string };
  hasBody?: boolean;
  isGenerator?: boolean;
}
interface Declaration {
  kind: string;
  location: { filename: string; line: number };
  jsDoc?: JsDoc;
  // deno-lint-ignore no-explicit-any
  def: any;
}
interface DocSymbol {
  name: string;
  declarations: Declaration[];
}

const problems = new Set<string>();

function paramName(param: Param): string | undefined {
  if (param.kind === "identifier") return param.name;
  if (param.kind === "assign" && param.left) return paramName(param.left);
  if (param.kind === "rest" && param.arg) return paramName(param.arg);
  return undefined; // destructured: any @param name documents it
}

function hasExample(doc: JsDoc | undefined): boolean {
  return (doc?.tags ?? []).some((tag) =>
    tag.kind === "example" && /```(?:ts|js|typescript)?\n[\s\S]*"@x\/msgpackr/.test(tag.doc ?? "")
  );
}

function returnsValue(fn: FunctionDef): boolean {
  const repr = fn.returnType?.repr ?? "";
  return !(repr === "void" || repr === "never" || /^Promise<void>$/.test(repr)) ||
    fn.isGenerator === true;
}

function checkFunction(
  where: string,
  doc: JsDoc | undefined,
  fn: FunctionDef,
  isConstructor = false,
): void {
  if (!doc?.doc?.trim()) problems.add(`${where}: no summary`);
  const documented = new Set(
    (doc?.tags ?? []).filter((t) => t.kind === "param").map((t) => t.name),
  );
  for (const param of fn.params) {
    const name = paramName(param);
    if (name !== undefined && !documented.has(name)) problems.add(`${where}: no @param ${name}`);
  }
  if (!isConstructor && returnsValue(fn) && !(doc?.tags ?? []).some((t) => t.kind === "return")) {
    problems.add(`${where}: no @returns`);
  }
}

function checkDeclaration(name: string, declaration: Declaration, overloaded: boolean): void {
  const { jsDoc, def } = declaration;
  const where = `${name} (${declaration.kind}, ${
    declaration.location.filename.replace(root.href, "")
  }:${declaration.location.line})`;
  if (!jsDoc?.doc?.trim()) problems.add(`${where}: no summary`);
  if (!hasExample(jsDoc) && !overloaded) problems.add(`${where}: no @example`);
  if (declaration.kind === "function") checkFunction(where, jsDoc, def as FunctionDef);
  if (declaration.kind === "class") {
    for (const constructor of def.constructors ?? []) {
      if (constructor.accessibility === "private") continue;
      checkFunction(`${name} constructor`, constructor.jsDoc, constructor, true);
    }
    for (const method of def.methods ?? []) {
      if (method.accessibility === "private" || method.name.startsWith("#")) continue;
      const signatures = (def.methods as { name: string; functionDef: FunctionDef }[])
        .filter((other) => other.name === method.name);
      if (signatures.length > 1 && method.functionDef.hasBody) continue; // the implementation
      const memberWhere = `${name}.${method.name}${method.isStatic ? " (static)" : ""}`;
      if (method.kind === "getter" || method.kind === "setter") {
        if (!method.jsDoc?.doc?.trim()) problems.add(`${memberWhere}: no summary`);
        continue;
      }
      checkFunction(memberWhere, method.jsDoc, method.functionDef);
      if (membersNeedExamples && signatures.length === 1 && !hasExample(method.jsDoc)) {
        problems.add(`${memberWhere}: no @example`);
      }
    }
    for (const property of def.properties ?? []) {
      if (property.accessibility === "private" || property.name.startsWith("#")) continue;
      if (!property.jsDoc?.doc?.trim()) problems.add(`${name}.${property.name}: no summary`);
    }
  }
  if (declaration.kind === "interface") {
    for (const member of [...(def.properties ?? []), ...(def.methods ?? [])]) {
      if (!member.jsDoc?.doc?.trim()) problems.add(`${name}.${member.name}: no summary`);
    }
  }
}

const command = new Deno.Command(Deno.execPath(), {
  args: ["doc", "--json", ...entries],
  cwd: root,
  stdout: "piped",
});
const { code, stdout } = await command.output();
if (code !== 0) throw new Error(`deno doc --json exited with ${code}`);
const output = JSON.parse(new TextDecoder().decode(stdout)) as {
  nodes: Record<string, { symbols: DocSymbol[] }>;
};
const seen = new Set<string>();
let symbols = 0;
for (const { symbols: exported } of Object.values(output.nodes)) {
  for (const symbol of exported) {
    const key = `${symbol.name} ${symbol.declarations.map((d) => d.location.line).join(",")}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (symbol.declarations.every((d) => d.kind === "reference")) continue;
    symbols++;
    const functions = symbol.declarations.filter((d) => d.kind === "function");
    const overloaded = functions.length > 1;
    for (const declaration of symbol.declarations) {
      // a re-export of a symbol another entry declares (and is checked there)
      if (declaration.kind === "reference") continue;
      // an overloaded function's implementation signature is not part of its API
      if (overloaded && declaration.kind === "function" && declaration.def.hasBody) continue;
      checkDeclaration(symbol.name, declaration, overloaded);
    }
    if (overloaded && !functions.some((d) => hasExample(d.jsDoc))) {
      problems.add(`${symbol.name}: no @example on any overload`);
    }
  }
}

for (const problem of problems) console.log(problem);
console.log(
  `docs: ${symbols} exported symbols of ${entries.join(", ")}; ${problems.size} problems`,
);
if (problems.size > 0) Deno.exit(1);
