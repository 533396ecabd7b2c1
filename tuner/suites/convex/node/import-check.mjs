// Imports one project's bundled "use node" modules, as Convex does on deploy, and reports every
// export that is a query or a mutation (only actions may live in "use node" files).
//
// Run by bundle.mjs in a process of its own per project: the imported code is the answer's, and
// whatever it does to this process (patching Object.entries, say) must not reach the check of
// another project. Input: a nonce on stdin (read before any answer code runs), then the
// entries as JSON in argv[2]: [{entry, file}]. Output: one JSON line {nonce, errors} on fd 3
// (stdout and stderr are the answer's too, and go to the host, which bounds them).
import { readFileSync, writeSync } from "node:fs";
import { pathToFileURL } from "node:url";

const nonce = readFileSync(0, "utf8").trim();
const { entries: entriesOf } = Object;
const exit = process.exit.bind(process);
const stringify = JSON.stringify;
// An imported module's asynchronous error (a failed spawn, a rejected promise, a timer) is not a
// deploy failure: the tests step runs the code again and sees it there.
process.on("uncaughtException", () => {});
process.on("unhandledRejection", () => {});

// Index loops and captured functions: the answer runs in this process and may patch built-ins
// (it can only hide its own errors that way, but should not find it easy).
const errors = [];
const jobs = JSON.parse(process.argv[2]);
for (let i = 0; i < jobs.length; i++) {
  const { entry, file } = jobs[i];
  let mod;
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (e) {
    errors[errors.length] = `${entry}: error: evaluating the "use node" module failed: ${e && e.message}`;
    continue;
  }
  const exported = entriesOf(mod);
  for (let j = 0; j < exported.length; j++) {
    const [name, value] = exported[j];
    const kind = value && (value.isQuery ? "query" : value.isMutation ? "mutation" : null);
    if (kind) {
      errors[errors.length] = `${entry}: error: \`${name}\` is a ${kind}, but "use node" files may only define actions (Convex rejects this on deploy)`;
    }
  }
}
writeSync(3, "\n" + stringify({ nonce, errors }) + "\n");
exit(0);
