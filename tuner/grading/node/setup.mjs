// Runs around every grader file. Batches share one worker (--no-isolate), so undo what a test
// file may leave behind: fake timers, stubbed globals and env, spies.
import { afterAll, vi } from "vitest";

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});
