// Runs in each grader file's own worker process (pool "forks", isolate: true) before the test
// file, hence before any module of the answer is imported.
//
// Each answer already has a process of its own, so it cannot change another answer's verdict.
// What is left is an answer forging its own: extending `expect` so every matcher passes, or
// patching the built-ins the matchers compare with. So, before the answer loads:
// * the matchers are locked (an `expect.extend` from the answer throws), and
// * the built-ins the comparisons use are remembered;
// and after the file's tests: the built-ins must be the same functions, and known-false
// assertions must still fail. Otherwise the file fails with the reason.
import { afterAll, chai, expect, vi } from "vitest";

const TAMPERED = "the answer tampered with the test framework";
// vitest adds these two matchers again for every test (createExpect): they stay writable.
const READDED = new Set(["toSatisfy", "toBeOneOf"]);

function lock(target) {
  for (const [name, desc] of Object.entries(Object.getOwnPropertyDescriptors(target))) {
    if (READDED.has(name) || !desc.configurable) continue;
    Object.defineProperty(target, name, "value" in desc ? { ...desc, writable: false, configurable: false }
      : { ...desc, configurable: false });
  }
  Object.preventExtensions(target);
}

const refuse = (what) => () => {
  throw new Error(`${TAMPERED}: ${what} is not allowed in an answer`);
};

chai.expect.extend = refuse("expect.extend");
chai.expect.addEqualityTesters = refuse("expect.addEqualityTesters");
lock(chai.Assertion.prototype);
lock(chai.expect);
const jestMatchers = globalThis[Symbol.for("$$jest-matchers-object")];
if (jestMatchers) {
  lock(jestMatchers.matchers);
  Object.freeze(jestMatchers.customEqualityTesters);
}

// The built-ins whose methods the matchers (and the runner) call while comparing.
const BUILTINS = {
  Object, "Object.prototype": Object.prototype, Array, "Array.prototype": Array.prototype,
  "Function.prototype": Function.prototype, "String.prototype": String.prototype, Number, Reflect, JSON,
  Symbol, Promise, "Promise.prototype": Promise.prototype, "Map.prototype": Map.prototype,
  "Set.prototype": Set.prototype, "RegExp.prototype": RegExp.prototype, "Error.prototype": Error.prototype,
};
const remembered = Object.entries(BUILTINS).flatMap(([owner, target]) =>
  Reflect.ownKeys(target).map((key) => [owner, target, key, Object.getOwnPropertyDescriptor(target, key)]));

function changedBuiltins() {
  const changed = [];
  for (const [owner, target, key, before] of remembered) {
    const now = Object.getOwnPropertyDescriptor(target, key);
    const same = now && ["value", "get", "set"].every((f) => Object.is(now[f], before[f]));
    if (!same) changed.push(`${owner}.${String(key)}`);
  }
  return changed;
}

// Each must throw; an answer that made one pass has made every verdict meaningless.
const FALSE_ASSERTIONS = [
  ["expect(1).toBe(2)", () => expect(1).toBe(2)],
  ["expect({ a: 1 }).toEqual({ a: 2 })", () => expect({ a: 1 }).toEqual({ a: 2 })],
  ["expect([1, 2]).toStrictEqual([1, 3])", () => expect([1, 2]).toStrictEqual([1, 3])],
  ["expect({ a: 1 }).toMatchObject({ a: 2 })", () => expect({ a: 1 }).toMatchObject({ a: 2 })],
  ['expect("a").toContain("b")', () => expect("a").toContain("b")],
  ["expect([]).toHaveLength(1)", () => expect([]).toHaveLength(1)],
  ["expect(undefined).toBeDefined()", () => expect(undefined).toBeDefined()],
  ["expect(() => {}).toThrow()", () => expect(() => {}).toThrow()],
  ["expect(true).toBeFalsy()", () => expect(true).toBeFalsy()],
];

function forgedAssertions() {
  const forged = [];
  for (const [text, assertion] of FALSE_ASSERTIONS) {
    try {
      assertion();
      forged.push(text);
    } catch {
      // the expected outcome
    }
  }
  return forged;
}

afterAll(async () => {
  // Batches used to share a worker; a file may still leave fake timers or stubs for its hooks.
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  const changed = changedBuiltins();
  if (changed.length) throw new Error(`${TAMPERED}: it replaced ${changed.slice(0, 5).join(", ")}`);
  const forged = forgedAssertions();
  if (forged.length) throw new Error(`${TAMPERED}: ${forged[0]} passed`);
  let rejected = false;
  await expect(Promise.resolve(1)).rejects.toThrow().catch(() => { rejected = true; });
  if (!rejected) throw new Error(`${TAMPERED}: expect(resolved).rejects.toThrow() passed`);
});
