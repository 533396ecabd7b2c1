// A vitest reporter that prints one JSON line per finished test file on vitest's own stdout,
// which the host reads through its pipe, so a batch that is killed part-way still leaves the
// results it had. No file is involved: the answer can write files in the jail, and a results
// file it replaced by a folder, a FIFO or a huge file crashed or hung the host.
//
// This reporter runs in vitest's main process; the code under test runs in forked workers
// (pool "forks"), one per grader file. A worker's output is piped through this process's
// stdout too, so a record carries a nonce that comes on stdin ({"nonce"}), not in the
// environment, and starts on a fresh line (a worker's unfinished line cannot swallow it).
// A watchdog ends the run when nothing has finished for $TUNER_STALL_MS (a synchronous
// infinite loop cannot be interrupted inside its worker); the files still running are then
// listed as {file, running: true}.
import { readFileSync } from "node:fs";

const { nonce } = JSON.parse(readFileSync(0, "utf8"));
const stallMs = Number(process.env.TUNER_STALL_MS || 0);

function write(record) {
  // One write (a worker's piped output comes in other writes); synchronous for pipes on Linux,
  // so it is out before a process.exit() that follows it.
  process.stdout.write("\n" + JSON.stringify({ ...record, nonce }) + "\n");
}

function errorText(error) {
  return [error.name && error.message ? `${error.name}: ${error.message}` : error.message || String(error),
    error.diff || ""].filter(Boolean).join("\n");
}

export default class LineReporter {
  running = new Set();
  ended = new Set();
  lastProgress = Date.now();

  onInit() {
    if (stallMs > 0) {
      this.timer = setInterval(() => this.watch(), 250);
      this.timer.unref();
    }
  }

  progress() {
    this.lastProgress = Date.now();
  }

  onTestModuleQueued() { this.progress(); }
  onTestModuleStart(mod) { this.running.add(mod.moduleId); this.started = true; this.progress(); }
  onTestCaseResult() { this.progress(); }

  onTestModuleEnd(mod) {
    this.running.delete(mod.moduleId);
    this.ended.add(mod.moduleId);
    this.progress();
    const tests = [...mod.children.allTests()];
    const failures = [];
    for (const test of tests) {
      const result = test.result();
      if (result.state === "failed") {
        failures.push(`✗ ${test.fullName}\n${(result.errors || []).map(errorText).join("\n")}`);
      }
    }
    const moduleErrors = mod.errors().map(errorText);
    write({
      file: mod.moduleId,
      passed: tests.filter((t) => t.result().state === "passed").length,
      total: tests.length,
      failures,
      errors: moduleErrors,
    });
  }

  // A worker that died (killed, out of memory, process.exit) ends no module: the run ends with
  // unattributed "unhandled errors" instead. The files that never ended are listed with them;
  // the host attributes them only when one file was running alone.
  onTestRunEnd(modules, unhandledErrors) {
    if (!unhandledErrors || !unhandledErrors.length) return;
    const errors = unhandledErrors.map(errorText);
    for (const mod of modules || []) {
      if (!this.ended.has(mod.moduleId)) write({ file: mod.moduleId, died: true, errors });
    }
  }

  watch() {
    // Start-up (transforming convex-test, the first imports) gets more slack on a busy machine.
    const limit = this.started ? stallMs : 3 * stallMs;
    if (Date.now() - this.lastProgress < limit) return;
    for (const file of this.running) write({ file, running: true });
    write({ stalled: true });
    process.exit(124);
  }
}
