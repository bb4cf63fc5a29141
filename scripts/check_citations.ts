// Copyright 2026 the @x/msgpackr authors. MIT license.

/**
 * Checks that every citation of a docs page by section name names a heading of that page:
 * `(docs/wire-format.md, "Two-byte ids")` in code comments and Markdown, and likewise for
 * `docs/architecture.md`. A renamed heading then fails CI instead of leaving dead citations.
 *
 * Run with `deno run -A scripts/check_citations.ts`. Prints one line per problem and exits
 * non-zero if there is any.
 *
 * @module
 */

const root = new URL("../", import.meta.url);
const PAGES = ["docs/wire-format.md", "docs/architecture.md"];

/** A heading as cited: without Markdown markup (backticks, escapes). */
function plain(text: string): string {
  return text.replace(/[`\\]/g, "").trim();
}

/** The `##`..`####` headings of a page. */
async function headings(page: string): Promise<Set<string>> {
  const text = await Deno.readTextFile(new URL(page, root));
  return new Set([...text.matchAll(/^#{2,4} (.+)$/gm)].map(([, heading]) => plain(heading)));
}

/** Tracked text files that may cite a page. */
async function trackedFiles(): Promise<string[]> {
  const { stdout } = await new Deno.Command("git", {
    args: ["ls-files", "*.ts", "*.md", "*.mjs", "*.js"],
    cwd: root,
  }).output();
  return new TextDecoder().decode(stdout).split("\n").filter((file) => file !== "");
}

const known = new Map<string, Set<string>>();
for (const page of PAGES) known.set(page, await headings(page));

const problems: string[] = [];
let citations = 0;
for (const file of await trackedFiles()) {
  // a citation may wrap: join comment lines into one text first
  const text = (await Deno.readTextFile(new URL(file, root)))
    .replace(/\n[ \t]*(?:\/\/|\*)?[ \t]*/g, " ");
  for (
    const [, page, names] of text.matchAll(
      /\b(?:docs\/)?([\w-]+\.md),? ("[^"]+"(?:(?:,| and|, and) "[^"]+")*)/g,
    )
  ) {
    const sections = known.get(`docs/${page}`);
    if (sections === undefined) continue;
    for (const [, name] of names.matchAll(/"([^"]+)"/g)) {
      citations++;
      if (!sections.has(plain(name))) {
        problems.push(`${file}: docs/${page} has no section "${name}"`);
      }
    }
  }
}
for (const problem of problems) console.log(problem);
console.log(`citations: ${citations} section names checked, ${problems.length} problems`);
if (problems.length > 0) Deno.exit(1);
