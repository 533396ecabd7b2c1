// Bundle check with Convex's deploy settings, for every sub-project of a grading batch.
//
// Input (argv[2]): a JSON file [{id, dir, browser: [...], node: [...], src: [...], files: [...], allowed: [...],
// out}], paths under dir; `files` are all the answer's code files, `allowed` lists the npm packages the eval
// provides besides convex.
// Output: one JSON line per project on stdout, {id, errors: [...], nonce}, as soon as it is
// checked, so a hang in one project still leaves the others' results. The nonce comes on stdin:
// imported model code can print to stdout too, but cannot forge a record without it.
//
// Default files are bundled for the browser platform (Convex's isolate: a Node built-in import
// fails). "use node" files are bundled for node, then imported: Convex evaluates them on deploy
// and rejects a query or mutation defined there, so any export marked isQuery/isMutation fails.
// The import runs in a child process per project (import-check.mjs): no answer code runs in
// this process, so none can change how its neighbours are checked.
//
// Every import of an answer's file (value or type, static or dynamic, `/// <reference path>`) must
// stay in the answer's own folder: the batch puts its neighbours one `../` away, and an import
// that resolves into a neighbour's folder would make this answer's verdict depend on who shares
// its batch (tsc checks type-only imports, which esbuild drops, so both are read from the source
// with TypeScript's own import scanner). The check is lexical, relative to the answer's root,
// so it gives the same verdict whatever the answer's folder is called. The bundles' resolved
// inputs are checked too (a tsconfig `paths` entry could lead elsewhere).
//
// Bare imports are checked against what the eval provides: `convex` and `convex/*`, the eval's
// declared dependencies and their subpaths, Node built-ins (the platform decides: they fail in
// default files), and in src/ files also `react` (client code). Anything else would not be
// installed in the graded app, even if the shared toolchain happens to hold it.
import * as esbuild from "esbuild";
import { builtinModules } from "node:module";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, posix, resolve } from "node:path";
import ts from "typescript";
import { fileURLToPath } from "node:url";

const importCheckScript = fileURLToPath(new URL("./import-check.mjs", import.meta.url));

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

// The build's errors; `inputs(metafile)` sees what it read.
async function build(options, inputs) {
  try {
    const result = await esbuild.build({ ...options, metafile: true });
    inputs?.(result.metafile);
    return describe(result.errors);
  } catch (e) {
    return e && e.errors ? describe(e.errors) : [String(e)];
  }
}

const outsideReason = "a file outside this answer's folder (an answer may import only its own files and the packages the eval provides)";

// Relative and absolute specifiers of every code file of the answer that leave its folder.
function importsOutside(job) {
  const violations = [];
  for (const file of job.files || []) {
    let text;
    try {
      text = readFileSync(join(job.dir, file), "utf8");
    } catch {
      continue; // bundled or type-checked, a missing file fails there
    }
    const found = ts.preProcessFile(text, true, true);
    const specs = [...found.importedFiles, ...found.referencedFiles, ...found.typeReferenceDirectives].map((f) => f.fileName);
    for (const spec of specs) {
      // TypeScript reads a backslash as a separator.
      const path = spec.replace(/\\/g, "/");
      const outside = path.startsWith("/") || /^file:/i.test(path) ||
        ((path.startsWith("./") || path.startsWith("../") || path === "..") &&
          /^\.\.(\/|$)/.test(posix.normalize(posix.join(posix.dirname(file), path))));
      if (outside) violations.push(`${file}: error: imports "${spec}", ${outsideReason}`);
    }
  }
  return violations;
}

// The files an esbuild build read from outside the answer's folder and the toolchain's packages.
function inputsOutside(job, metafile, violations) {
  if (!metafile) return;
  const allowed = [job.dir, join(process.cwd(), "node_modules")];
  try {
    allowed.push(realpathSync(join(process.cwd(), "node_modules")));
  } catch {
    // no toolchain link: nothing more is allowed
  }
  const inside = (p) => allowed.some((root) => p === root || p.startsWith(root + "/"));
  for (const [importer, input] of Object.entries(metafile.inputs)) {
    for (const imp of input.imports || []) {
      if (imp.external || /^\(?[a-z-]+\)?:/.test(imp.path)) continue;
      const target = isAbsolute(imp.path) ? imp.path : resolve(job.dir, imp.path);
      if (!inside(target)) violations.push(`${importer}: error: imports "${imp.original || imp.path}", ${outsideReason}`);
    }
  }
}

function packageOf(spec) {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

// An esbuild plugin recording every bare import of the project's own files (not of packages)
// that the eval does not provide; undeclared packages are left external so the check goes on.
function importCheck(job, allowed, violations) {
  return {
    name: "tuner-import-check",
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (!args.importer || args.importer.includes("/node_modules/")) return null;
        if (args.path.startsWith("node:") || builtinModules.includes(args.path)) return null;
        if (allowed.has(packageOf(args.path))) return null;
        const file = args.importer.startsWith(job.dir + "/") ? args.importer.slice(job.dir.length + 1) : args.importer;
        violations.push(`${file}: error: imports "${args.path}", but package "${packageOf(args.path)}" is not provided ` +
          `by this eval (available: ${[...allowed].join(", ")})`);
        return { path: args.path, external: true };
      });
    },
  };
}

// The "use node" modules are imported in a child process per project (import-check.mjs): their
// top-level code is the answer's, and must not change how another project is checked.
function nodeOnlyActions(job) {
  const entries = job.node.map((entry) => ({
    entry, file: join(job.out, entry.replace(/^convex\//, "").replace(/\.[^./]+$/, ".mjs")) }));
  const childNonce = randomBytes(16).toString("hex");
  // The child's own output goes where this process's goes (the host bounds it); its result
  // comes on fd 3.
  const done = spawnSync(process.execPath, [importCheckScript, JSON.stringify(entries)], {
    input: childNonce, encoding: "utf8", maxBuffer: 16 * 1024 * 1024, cwd: process.cwd(),
    stdio: ["pipe", "inherit", "inherit", "pipe"],
  });
  for (const line of String((done.output && done.output[3]) || "").split("\n").reverse()) {
    try {
      const record = JSON.parse(line);
      if (record && record.nonce === childNonce && Array.isArray(record.errors)) return record.errors.map(String);
    } catch {
      // not a record
    }
  }
  const how = done.error ? done.error.message : done.signal ? `killed by ${done.signal}` : `exit ${done.status}`;
  return job.node.map((entry) => `${entry}: error: importing the "use node" modules ended without a result (${how})`);
}

async function check(job) {
  const errors = [];
  const violations = [];
  const allowed = new Set(["convex", ...(job.allowed || [])]);
  const plugins = [importCheck(job, allowed, violations)];
  const outside = importsOutside(job);
  if (outside.length) return [...new Set(outside)];
  const inputs = (metafile) => inputsOutside(job, metafile, violations);
  if (job.browser.length) {
    errors.push(...(await build({ ...common, absWorkingDir: job.dir, entryPoints: job.browser,
      platform: "browser", splitting: true, write: false, outdir: "out", plugins }, inputs)));
  }
  if (job.src && job.src.length) {
    // Client code is not deployed: only its imports are checked here (tsc judges the rest).
    const clientAllowed = new Set([...allowed, "react"]);
    await build({ ...common, absWorkingDir: job.dir, entryPoints: job.src, platform: "browser",
      splitting: true, write: false, outdir: "out-src", outbase: "src",
      plugins: [importCheck(job, clientAllowed, violations)] }, inputs);
  }
  if (violations.length) return [...new Set(violations)];
  if (job.node.length && !errors.length) {
    const nodeErrors = await build({ ...common, absWorkingDir: job.dir, entryPoints: job.node,
      platform: "node", write: true, outdir: job.out, outExtension: { ".js": ".mjs" },
      // CommonJS dependencies call require(); give the ESM bundle one, as Node would.
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      plugins }, inputs);
    if (violations.length) return [...new Set(violations)];
    errors.push(...nodeErrors);
    if (!nodeErrors.length) errors.push(...nodeOnlyActions(job));
  }
  return errors;
}

const nonce = readFileSync(0, "utf8").trim();
// An imported module's asynchronous error (a failed spawn, a rejected promise, a timer) must
// not end the batch. It cannot be told apart from another project's, so it only goes to stderr;
// the tests step runs the code again and sees it there.
const asyncError = (e) => process.stderr.write(`async error in an imported module: ${e && e.message}\n`);
process.on("uncaughtException", asyncError);
process.on("unhandledRejection", asyncError);
const jobs = JSON.parse(readFileSync(process.argv[2], "utf8"));
// The scratch space is shared by the batch and bounded: a full one may be a neighbour's doing
// (its "use node" module filled it when imported). Such a project gets no record here; it is
// checked again alone, with a scratch space of its own.
const noSpace = /no space left on device|ENOSPC/;
for (const job of jobs) {
  const errors = await check(job);
  if (jobs.length > 1 && errors.some((e) => noSpace.test(e))) continue;
  process.stdout.write(JSON.stringify({ id: job.id, errors, nonce }) + "\n");
}
await esbuild.stop?.();
process.exit(0);
