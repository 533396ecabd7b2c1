// Bundle check with Convex's deploy settings, for every sub-project of a grading batch.
//
// Input (argv[2]): a JSON file [{id, dir, browser: [...], node: [...], out}], paths under dir.
// Output: one JSON line per project on stdout, {id, errors: [...]}, as soon as it is checked, so
// a hang in one project still leaves the others' results.
//
// Default files are bundled for the browser platform (Convex's isolate: a Node built-in import
// fails). "use node" files are bundled for node, then imported: Convex evaluates them on deploy
// and rejects a query or mutation defined there, so any export marked isQuery/isMutation fails.
import * as esbuild from "esbuild";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const common = {
  bundle: true,
  format: "esm",
  target: "esnext",
  jsx: "automatic",
  conditions: ["convex", "module"],
  outbase: "convex",
  logLevel: "silent",
};

function describe(messages) {
  return messages.map((m) => {
    const where = m.location ? `${m.location.file}:${m.location.line}:${m.location.column}: ` : "";
    const notes = (m.notes || []).map((n) => `\n  note: ${n.text}`).join("");
    return `${where}error: ${m.text}${notes}`;
  });
}

async function build(options) {
  try {
    const result = await esbuild.build(options);
    return describe(result.errors);
  } catch (e) {
    return e && e.errors ? describe(e.errors) : [String(e)];
  }
}

async function nodeOnlyActions(job) {
  const errors = [];
  for (const entry of job.node) {
    const file = join(job.out, entry.replace(/^convex\//, "").replace(/\.[^./]+$/, ".mjs"));
    let mod;
    try {
      mod = await import(pathToFileURL(file).href);
    } catch (e) {
      errors.push(`${entry}: error: evaluating the "use node" module failed: ${e && e.message}`);
      continue;
    }
    for (const [name, value] of Object.entries(mod)) {
      const kind = value && (value.isQuery ? "query" : value.isMutation ? "mutation" : null);
      if (kind) {
        errors.push(`${entry}: error: \`${name}\` is a ${kind}, but "use node" files may only define actions (Convex rejects this on deploy)`);
      }
    }
  }
  return errors;
}

async function check(job) {
  const errors = [];
  if (job.browser.length) {
    errors.push(...(await build({ ...common, absWorkingDir: job.dir, entryPoints: job.browser,
      platform: "browser", splitting: true, write: false, outdir: "out" })));
  }
  if (job.node.length && !errors.length) {
    const nodeErrors = await build({ ...common, absWorkingDir: job.dir, entryPoints: job.node,
      platform: "node", write: true, outdir: job.out, outExtension: { ".js": ".mjs" },
      // CommonJS dependencies call require(); give the ESM bundle one, as Node would.
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" } });
    errors.push(...nodeErrors);
    if (!nodeErrors.length) errors.push(...(await nodeOnlyActions(job)));
  }
  return errors;
}

const jobs = JSON.parse(readFileSync(process.argv[2], "utf8"));
for (const job of jobs) {
  const errors = await check(job);
  process.stdout.write(JSON.stringify({ id: job.id, errors }) + "\n");
}
await esbuild.stop?.();
process.exit(0);
