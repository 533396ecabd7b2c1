"""A grading batch on disk: one temp folder, one sub-project per request, shared tool configs.

```
<tmp>/tuner-grade-*/
  node_modules -> evals/toolchain/node_modules   (symlink: nothing is installed per batch)
  package.json, eslint.config.mjs, tsconfig.*.json, vitest.*.mjs, _tuner/*.mjs
  p000/convex/…  p000/src/…  p000/grader.test.ts
  p001/…
  .scratch/home, .scratch/bundles, .scratch/vite   (the tools' only writable folder)
```
In the sandbox the batch folder is read-only: the code under test cannot rewrite a grader, a
config or another output; only ``.scratch`` (tool output, caches, HOME) can be written, and in
the jail it is a fresh bounded tmpfs per tool run that the host never reads.
Tools run once over many sub-projects and their output is attributed back by the ``pNNN/``
prefix of each path.
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from tuner.grading import GradeRequest, StepOutcome, sandbox
from tuner.suites.convex.codegen import entry_points, function_modules, local_components
from tuner.suites.convex.settings import dependencies
from tuner.suites.convex.toolchain import Toolchain

__all__ = ["SubProject", "Workspace"]

_NODE_DIR = Path(__file__).parent / "node"
_USE_NODE = re.compile(r"""^(?:\s|//[^\n]*\n|/\*.*?\*/)*(?:(['"])use strict\1;?\s*)?(['"])use node\2""", re.DOTALL)
# Files that can change the global scope of a shared tsc program; type-checked on their own.
_GLOBAL_DECL = re.compile(r"^\s*declare\s+(global|module)\b", re.MULTILINE)

# Files Convex always runs in its own runtime, whatever their directive says.
_MUST_BE_ISOLATE = ("http", "crons", "schema", "auth.config")

@dataclass
class SubProject:
    index: int
    request: GradeRequest
    dir: Path
    outcomes: dict[str, StepOutcome] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.dir.name

    @property
    def alive(self) -> bool:
        """No step has failed or errored yet."""
        return all(o.status == "pass" for o in self.outcomes.values())

    def is_node_file(self, rel: str) -> bool:
        return bool(_USE_NODE.match(self.request.files.get(rel, "")))

    def bundle_job(self, out: Path) -> dict:
        convex = {p.removeprefix("convex/"): t for p, t in self.request.files.items() if p.startswith("convex/")}
        entries = ["convex/" + e for e in function_modules(convex)]
        # The app's and each local component's schema and definition (not function modules,
        # bundled on their own by the CLI).
        schema, config = [], []
        for d in ["", *(c + "/" for c in local_components(convex))]:
            schema += [f"convex/{d}{s}" for s in ("schema.ts", "schema.js") if d + s in convex][:1]
            config += [f"convex/{d}{c}" for c in ("convex.config.ts", "convex.config.js") if d + c in convex][:1]
        node = [e for e in entries if self.is_node_file(e)]
        browser = [e for e in entries if e not in node] + schema + config
        src = sorted(p for p in self.request.files if p.startswith("src/") and re.search(r"(?<!\.d)\.(ts|tsx|js|jsx|mjs)$", p))
        # Every code file tsc reads (not only what the bundles reach): their imports must stay inside.
        code = sorted(p for p in self.request.files if re.search(r"\.[cm]?[jt]sx?$", p))
        return {"id": self.name, "dir": str(self.dir), "browser": browser, "node": node, "src": src, "files": code,
                "allowed": list(dependencies(self.request.eval)), "out": str(out)}

    def deploy_problems(self) -> list[str]:
        """What Convex's CLI refuses before bundling: "use node" in a file that must run in the
        default runtime, and a file under convex/actions/ without "use node" (a legacy rule)."""
        convex = {p.removeprefix("convex/"): t for p, t in self.request.files.items() if p.startswith("convex/")}
        problems = []
        # The app and each local component: the CLI applies the rules inside each definition's folder.
        for d in ["", *(c + "/" for c in local_components(convex))]:
            own = {r.removeprefix(d): t for r, t in convex.items() if r.startswith(d)}
            for rel in entry_points(own) + [s for s in ("schema.ts", "schema.js") if s in own]:
                node = self.is_node_file(f"convex/{d}{rel}")
                if node and rel.rsplit(".", 1)[0] in _MUST_BE_ISOLATE:
                    problems.append(f'convex/{d}{rel}: error: "use node" directive is not allowed for {rel}')
                elif not node and rel.startswith("actions/"):
                    problems.append(f'convex/{d}{rel}: error: files in {d}actions/ must start with "use node"')
        return problems

    def declares_globals(self) -> bool:
        return any(p.endswith(".d.ts") or _GLOBAL_DECL.search(t) for p, t in self.request.files.items())


class Workspace:
    def __init__(self, root: Path, toolchain: Toolchain, eslint_rules: dict[str, str]) -> None:
        self.root = root
        self.toolchain = toolchain
        self.scratch = sandbox.hand_over(root / ".scratch")
        self.home = sandbox.hand_over(self.scratch / "home")
        self.bundles = sandbox.hand_over(self.scratch / "bundles")
        sandbox.hand_over(self.scratch / "vite")
        (root / "node_modules").symlink_to(toolchain.node_modules, target_is_directory=True)
        (root / "package.json").write_text('{"private": true, "type": "module"}\n')
        shutil.copytree(_NODE_DIR, root / "_tuner")
        (root / "eslint.config.mjs").write_text(_eslint_config(eslint_rules))
        self._runs = itertools.count(1)  # next() is atomic: steps run in threads
        # Reference answers run alone to tell a broken tool from an output that broke it
        # (pipeline._blame), by (step, eval id); their sub-projects are numbered after the batch's.
        self.reference_passes: dict[tuple[str, str], bool] = {}
        self.reference_indexes = itertools.count(900)

    def new_subproject(self, index: int, request: GradeRequest) -> SubProject:
        path = self.root / f"p{index:03d}"
        path.mkdir()
        return SubProject(index, request, path)

    def fresh_name(self, stem: str, ext: str) -> Path:
        """A unique file name per tool run (isolated re-runs share the workspace)."""
        return self.root / f"{stem}.{next(self._runs)}.{ext}"

    def write_tsconfig(self, subs: list[SubProject]) -> Path:
        include = [f"{s.name}/{part}" for s in subs for part in ("convex/**/*", "src/**/*", "grader.test.ts")]
        config = {"compilerOptions": _TS_OPTIONS, "include": include, "exclude": ["**/_generated/**"]}
        path = self.fresh_name("tsconfig", "json")
        path.write_text(json.dumps(config, indent=2))
        return path

    def write_vitest_config(self, subs: list[SubProject]) -> Path:
        include = [f"{s.name}/grader.test.ts" for s in subs]
        path = self.fresh_name("vitest.config", "mjs")
        path.write_text(_VITEST_CONFIG.format(include=json.dumps(include)))
        return path


# Convex's generated convex/tsconfig.json, plus what the graders need: a recent lib (the Convex
# runtimes support modern JS), Node types for "use node" files (TypeScript 6 no longer loads
# @types by itself), vite's ImportMeta.glob types, and moduleDetection "force" so a file without
# imports cannot put its declarations into the program's shared global scope.
_TS_OPTIONS = {
    "target": "ESNext",
    "lib": ["ESNext", "DOM", "DOM.Iterable"],
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "moduleDetection": "force",
    "jsx": "react-jsx",
    "strict": True,
    "allowJs": True,
    "skipLibCheck": True,
    "allowSyntheticDefaultImports": True,
    "isolatedModules": True,
    "forceConsistentCasingInFileNames": True,
    "noEmit": True,
    "types": ["node", "vite/client"],
}

_VITEST_CONFIG = """import {{ defineConfig }} from "vitest/config";
export default defineConfig({{
  cacheDir: "./.scratch/vite",
  test: {{
    include: {include},
    environment: "edge-runtime",
    // Component packages ship their test registration as TypeScript using import.meta.glob: let vite
    // transform them too.
    server: {{ deps: {{ inline: ["convex-test", /@convex-dev/] }} }},
    setupFiles: ["./_tuner/setup.mjs"],
    reporters: ["./_tuner/reporter.mjs"],
    testTimeout: 20000,
    hookTimeout: 20000,
    watch: false,
    // Every grader file (one answer) in a fresh process of its own: an answer that patches a
    // built-in or vitest itself changes only its own verdict (threads without isolation let
    // one answer fail or pass its neighbours).
    pool: "forks",
    isolate: true,
    // Two at a time even on 2 cores (vitest's default there is one): 36 outputs took a median
    // 26 s instead of 31 s beside tsc and eslint.
    maxWorkers: 2,
  }},
}});
"""


def _eslint_config(rules: dict[str, str]) -> str:
    return f"""import convex from "@convex-dev/eslint-plugin";
import tseslint from "typescript-eslint";
export default [
  {{ ignores: ["**/_generated/**", "node_modules/**", "_tuner/**", ".scratch/**"] }},
  {{
    files: ["**/convex/**/*.{{ts,tsx,mts,cts,js,jsx,mjs,cjs}}"],
    languageOptions: {{ parser: tseslint.parser, ecmaVersion: "latest", sourceType: "module" }},
    // A model cannot switch the checks off with eslint-disable comments.
    linterOptions: {{ noInlineConfig: true, reportUnusedDisableDirectives: "off" }},
    plugins: {{ "@convex-dev": convex }},
    rules: {json.dumps(rules, indent=6)},
  }},
];
"""
