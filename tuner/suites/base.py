"""The suite-kind protocol: everything tuner needs to know about how a suite's answers are graded.

Everything above this seam (runs, stats, compare, tune, ablate, publish) is suite-agnostic: it
sees categories and eval ids from the manifest, messages built from a kind's answer format, and
``GradeResult`` records whose steps are the kind's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from tuner.grading.models import GradeRequest, GradeResult

__all__ = ["SuiteKind", "SuiteView", "Progress"]

Progress = Callable[[int, int], None]


class SuiteView(Protocol):
    """What a kind reads of a loaded suite. ``tuner.evals.Suite`` is one; it sits a layer above the
    kinds (it asks its kind), so the contract names this instead (docs/layout.md, "Layers")."""

    @property
    def root(self) -> Path: ...  # the suite's folder

    @property
    def manifest(self) -> Any: ...  # the parsed suite.toml (``kind_settings``, lint levels)

    @property
    def evals(self) -> Sequence[Any]: ...  # ``tuner.evals.Eval``: id, category, folder, hashes

    @property
    def grader_id(self) -> str: ...  # the kind's ``grader_id`` of this suite


@runtime_checkable
class SuiteKind(Protocol):
    """A kind of suite (``kind = "..."`` in ``suite.toml``).

    Contract, tested once per kind (``tests/suites``):

    - ``name``: the value of ``kind`` in a manifest.
    - ``steps``: the grading steps in the order they run. A result has exactly these steps; the
      first that does not pass is its ``failed_step`` and later ones are ``skip``.
    - ``grader_file``: the file in each eval folder holding its grader (tests).
    - ``answer_roots``: top-level folders an answer's files live under (``convex``, ``src``;
      ``app``). A reference answer is ``answer/<root>/...``; the first root must exist.
    - ``answer_extensions``: the file extensions (no dot) an answer's files may have; the answer
      parser reads only fenced blocks naming such a file, so a kind in another language lists its own.
    - ``published_name``: the default name of the published guideline file.
    - ``file_globs``: comma-separated globs of the files the guidelines apply to (Cursor rules).
    - ``output_format()``: the answer-format instructions appended to every task in the user
      message, the fence format included: ``# Files``, then per file a ``## <root>/<path>`` line and
      one fenced block (with the kind's language tag) holding the whole file. The answer reader,
      ``tuner.models.read_answer``, reads this format back (and what models write instead of it:
      see ``tuner.models.answers.markdown`` for the precedence of the paths a block may carry). The
      text is part of a run's identity (and of its planned tokens): change it and runs get new ids.
      Files outside ``answer_roots`` are left out of an answer with a warning unless they replace
      one it writes under a root (``tuner.models.answers.paths``).
    - ``grader_id(suite)``: a content hash of the kind's grader inputs: everything, outside the eval
      folders, that can change a verdict (tool configuration and versions, lint levels, scripts, the
      toolchain lock, its own grading code and the ``tuner.grading`` modules it runs on). Eval
      folders are hashed separately (``Eval.content_hash``). Part of every run's identity and of
      every cache key, so a change of the grader replays nothing stale.
    - ``grade(suite, requests, ...)``: one ``GradeResult`` per request, in order. Never raises for
      a bad output: a model failure is a failed step; a grader that cannot run is an
      infrastructure error (``infra_error`` set, excluded from scores, not cached). Runs model code
      only in a scrubbed sandbox with timeouts; ``timeout_s`` (when given) bounds each tool run over
      one output, else the kind's own default. Results are cached by (output files, eval grader,
      ``grader_id``) under ``cache_dir``. One output's verdict never depends on another's.

    Optional members (a kind without them gets the default said):

    - ``settings_model``: a pydantic model (``extra="forbid"``) of the kind's own keys in
      ``suite.toml``, beside the shared ones; the validated value is ``suite.manifest.kind_settings``.
      Default: the kind takes no keys of its own.
    - ``eval_config_model``: a pydantic model of an eval folder's ``eval.toml``; the validated value
      is ``Eval.kind_settings`` and is part of the eval's hashes. Default: no ``eval.toml``.
    - ``check_suite(suite)``: checks across the loaded suite, raising ``InputError`` naming the
      file (Convex: every package an eval declares is in the toolchain). Default: none.
    - ``tool_format()``: the instructions of the structured answer format (a suite's
      ``answer_format = "tool"``: files through a ``write_file(path, content)`` tool call), with the
      kind's example path and any rule its ``output_format`` adds. Default: the generic
      ``tuner.models.answers.tool_instructions`` over ``answer_roots``.
    - ``generated_paths(files)``: the paths of a file set that the kind's own tools write (Convex:
      ``convex/_generated/``; pytest: ``__pycache__/``). ``tuner grade DIR`` and the suite loader
      (reference and alternative answers) leave them out of files read from disk, as they are not
      the answer's. Default: none.
    - ``failure_signature(step, detail)``: the distinct error identities a failing step's detail
      names (Convex: failing test names, tsc codes, eslint rule ids), normalized so answers that
      fail the same way share them; the rule-effect engine reads answers through them
      (``tuner.grading.signature``). Default: the step alone.

    Kinds are found through the ``tuner.suite_kinds`` entry-point group (``name = "module:Class"``,
    instantiated without arguments), so a kind can ship as a package of its own.
    """

    name: str
    steps: tuple[str, ...]
    grader_file: str
    answer_roots: tuple[str, ...]
    answer_extensions: tuple[str, ...]
    published_name: str
    file_globs: str

    def output_format(self) -> str: ...

    def grader_id(self, suite: SuiteView) -> str: ...

    def grade(
        self,
        suite: SuiteView,
        requests: list[GradeRequest],
        *,
        cache_dir: Path,
        use_cache: bool = True,
        progress: Progress | None = None,
        timeout_s: float | None = None,
    ) -> list[GradeResult]: ...
