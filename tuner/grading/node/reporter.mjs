// A vitest reporter that appends one JSON line per finished test file to a results file, so a
// batch that is killed part-way still leaves the results it had. The file's path and a nonce
// come on stdin ({"out", "nonce"}), not in the environment: the code under test runs in this
// process too, and a record without the nonce is ignored. A watchdog ends the run when
// nothing has finished for $TUNER_STALL_MS (a synchronous infinite loop cannot be interrupted
// inside its worker); the files still running are then listed as {file, running: true}.
import { appendFileSync, readFileSync } from "node:fs";

const { out, nonce } = JSON.parse(readFileSync(0, "utf8"));
const stallMs = Number(process.env.TUNER_STALL_MS || 0);

function write(record) {
  appendFileSync(out, JSON.stringify({ ...record, nonce }) + "\n");
}

function errorText(error) {
  return [error.name && error.message ? `${error.name}: ${error.message}` : error.message || String(error),
    error.diff || ""].filter(Boolean).join("\n");
}

export default class LineReporter {
  running = new Set();
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

  watch() {
    // Start-up (transforming convex-test, the first imports) gets more slack on a busy machine.
    const limit = this.started ? stallMs : 3 * stallMs;
    if (Date.now() - this.lastProgress < limit) return;
    for (const file of this.running) write({ file, running: true });
    write({ stalled: true });
    process.exit(124);
  }
}
