"""Step 2: write ``convex/_generated/`` offline, as ``npx convex codegen`` would.

Convex's codegen output is small and mostly constant; only the module list (``api.d.ts``) and
whether a schema exists (``dataModel.d.ts``) vary. Writing it here takes milliseconds instead of
~2 s per project for the CLI, and needs no deployment. The typing is the CLI's (Convex 1.48,
``--system-udfs``): ``api``/``internal`` are ``FilterApi<ApiFromModules<…>>`` of
``FunctionReference``s, ``DataModel`` comes from ``DataModelFromSchemaDefinition``, and the
builders and ``*Ctx`` types are parameterized by it. The JS halves are the CLI's too (``anyApi``,
the ``*Generic`` builders), which is what convex-test loads at run time. The doc comments of the
real files are left out. A node test compares this output with the CLI's (tests/grading).

With ``convex/convex.config.ts`` (an app that installs components with ``app.use``), ``api`` also
exports ``components``, as the CLI's component codegen writes it after a push: one entry per
installed component, typed by the package's own ``_generated/component.js`` ``ComponentApi``, and
``componentsGeneric()`` at run time. The CLI learns each component's name from the deployment; we
read it from ``app.use(x, { name })`` or derive the package's default (``defineComponent`` names
are the camelCased package name: ``@convex-dev/rate-limiter`` -> ``rateLimiter``).

A component defined inside the app (a folder of ``convex/`` holding ``convex.config.ts`` with
``defineComponent``, installed with ``app.use``) gets its own ``_generated/`` as the CLI writes it
for a local component (TypeScript: ``api.ts``, ``server.ts``, ``dataModel.ts``, ``component.ts``);
its modules are not the app's, and the parent's ``components.<name>`` is typed by its
``component.ts``. The CLI types ``ComponentApi`` from the deployment's analysis of each function's
validators; offline it is derived from the modules' own types (public functions only, seen as
``"internal"`` references of the component, ids as plain strings as across any component boundary).
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

__all__ = ["entry_points", "generate", "write_generated", "module_problems", "installed_components",
           "local_components", "function_modules"]

_ENTRY_EXTENSIONS = (".js", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".jsx")
_HAS_IMPORT_OR_EXPORT = re.compile(r"^\s{0,100}(import|export)", re.MULTILINE)
_RESERVED = {
    "fullApi", "api", "internal", "components", "break", "case", "catch", "class", "const",
    "continue", "debugger", "default", "delete", "do", "else", "export", "extends", "false",
    "finally", "for", "function", "if", "import", "in", "instanceof", "new", "null", "return",
    "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with",
    "let", "static", "yield", "await", "enum", "implements", "interface", "package", "private",
    "protected", "public",
}


def local_components(convex_files: dict[str, str]) -> list[str]:
    """Folders (relative to ``convex/``) that define a component: the CLI's test is a
    ``convex.config.ts`` in the folder."""
    return sorted(rel.rsplit("/", 1)[0] for rel in convex_files if rel.endswith("/convex.config.ts"))


def entry_points(convex_files: dict[str, str]) -> list[str]:
    """Function modules, relative to ``convex/``, by the CLI's rules (sorted like the CLI); a
    component's folder is skipped (its modules are the component's)."""
    found = []
    nested = tuple(d + "/" for d in local_components(convex_files))
    for rel, text in convex_files.items():
        base = rel.rsplit("/", 1)[-1]
        if not rel.endswith(_ENTRY_EXTENSIONS) or rel.startswith(("_generated/", *nested)):
            continue
        if base.startswith((".", "#")) or base in ("schema.ts", "schema.js"):
            continue
        if base.count(".") > 1 or " " in rel or rel.startswith("_deps/"):
            continue
        # The CLI skips TypeScript files that are not modules (nothing imported or exported).
        if rel.endswith((".ts", ".tsx")) and not _HAS_IMPORT_OR_EXPORT.search(text):
            continue
        found.append(rel)
    return sorted(found)


def _import_path(module: str) -> str:
    return module.rsplit(".", 1)[0]


def _identifier(module: str) -> str:
    ident = _import_path(module).replace("/", "_").replace("-", "_")
    return f"{ident}_" if ident in _RESERVED else ident


def _definitions(convex_files: dict[str, str]) -> dict[str, dict[str, str]]:
    """The app (``""``) and each local component, with the files under its folder relative to it."""
    return {d: {r.removeprefix(d + "/"): t for r, t in convex_files.items() if not d or r.startswith(d + "/")}
            for d in ["", *local_components(convex_files)]}


def function_modules(convex_files: dict[str, str]) -> list[str]:
    """Every function module of the app and of its local components, relative to ``convex/``."""
    return sorted(f"{d}/{m}" if d else m for d, files in _definitions(convex_files).items() for m in entry_points(files))


def module_problems(files: dict[str, str]) -> list[str]:
    """Modules whose path cannot appear in the generated ``api`` (the CLI would write invalid
    TypeScript for them, so the deploy fails at codegen)."""
    convex = {p.removeprefix("convex/"): t for p, t in files.items() if p.startswith("convex/")}
    return [
        f"convex/{d + '/' if d else ''}{m}: module path is not usable in the generated api "
        f"('{_identifier(m)}' is not a valid identifier; use letters, digits and _, not starting with a digit)"
        for d, own in _definitions(convex).items() for m in entry_points(own)
        if not re.fullmatch(r"[A-Za-z_$][\w$]*", _identifier(m))
    ]


def _key(module: str) -> str:
    path = _import_path(module)
    return path if re.fullmatch(r"[A-Za-z_$][\w$]*", path) else f'"{path}"'


def _module_lines(modules: list[str]) -> tuple[str, str]:
    """The ``import type`` lines of the modules and their entries in ``ApiFromModules<{...}>``."""
    imports = "".join(f'import type * as {_identifier(m)} from "../{_import_path(m)}.js";\n' for m in modules)
    return imports, "".join(f"  {_key(m)}: typeof {_identifier(m)};\n" for m in modules)


def _api_dts(modules: list[str]) -> str:
    imports, entries = _module_lines(modules)
    return (
        "/* eslint-disable */\n"
        "import type {\n  ApiFromModules,\n  FilterApi,\n  FunctionReference,\n} from \"convex/server\";\n"
        f"{imports}\n"
        f"declare const fullApi: ApiFromModules<{{\n{entries}}}>;\n"
        "export declare const api: FilterApi<\n  typeof fullApi,\n  FunctionReference<any, \"public\">\n>;\n"
        "export declare const internal: FilterApi<\n  typeof fullApi,\n  FunctionReference<any, \"internal\">\n>;\n"
    )


_API_JS = """/* eslint-disable */
import { anyApi } from "convex/server";

export const api = anyApi;
export const internal = anyApi;
"""

_DATA_MODEL_WITH_SCHEMA = """/* eslint-disable */
import type {
  DataModelFromSchemaDefinition,
  DocumentByName,
  TableNamesInDataModel,
  SystemTableNames,
} from "convex/server";
import type { GenericId } from "convex/values";
import schema from "../schema.js";

export type TableNames = TableNamesInDataModel<DataModel>;

export type Doc<TableName extends TableNames> = DocumentByName<
  DataModel,
  TableName
>;

export type Id<TableName extends TableNames | SystemTableNames> =
  GenericId<TableName>;

export type DataModel = DataModelFromSchemaDefinition<typeof schema>;
"""

# Without a schema the CLI writes permissive types (any table, any document).
_DATA_MODEL_WITHOUT_SCHEMA = """/* eslint-disable */
import { AnyDataModel } from "convex/server";
import type { GenericId } from "convex/values";

export type TableNames = string;

export type Doc = any;

export type Id<TableName extends TableNames = TableNames> =
  GenericId<TableName>;

export type DataModel = AnyDataModel;
"""

_SERVER_DTS = """/* eslint-disable */
import {
  ActionBuilder,
  HttpActionBuilder,
  MutationBuilder,
  QueryBuilder,
  GenericActionCtx,
  GenericMutationCtx,
  GenericQueryCtx,
  GenericDatabaseReader,
  GenericDatabaseWriter,
} from "convex/server";
import type { DataModel } from "./dataModel.js";

export declare const query: QueryBuilder<DataModel, "public">;
export declare const internalQuery: QueryBuilder<DataModel, "internal">;
export declare const mutation: MutationBuilder<DataModel, "public">;
export declare const internalMutation: MutationBuilder<DataModel, "internal">;
export declare const action: ActionBuilder<DataModel, "public">;
export declare const internalAction: ActionBuilder<DataModel, "internal">;
export declare const httpAction: HttpActionBuilder;

export declare const env: Record<string, string | undefined>;

export type QueryCtx = GenericQueryCtx<DataModel>;
export type MutationCtx = GenericMutationCtx<DataModel>;
export type ActionCtx = GenericActionCtx<DataModel>;
export type DatabaseReader = GenericDatabaseReader<DataModel>;
export type DatabaseWriter = GenericDatabaseWriter<DataModel>;
"""

_SERVER_JS = """/* eslint-disable */
import {
  actionGeneric,
  httpActionGeneric,
  queryGeneric,
  mutationGeneric,
  internalActionGeneric,
  internalMutationGeneric,
  internalQueryGeneric,
} from "convex/server";

export const query = queryGeneric;
export const internalQuery = internalQueryGeneric;
export const mutation = mutationGeneric;
export const internalMutation = internalMutationGeneric;
export const action = actionGeneric;
export const internalAction = internalActionGeneric;
export const httpAction = httpActionGeneric;

export const env = process.env;
"""


_CONFIG_FILES = ("convex.config.ts", "convex.config.js")
_COMPONENT_IMPORT = re.compile(
    r"""import\s+([A-Za-z_$][\w$]*)\s+from\s*["']([^"']+?)/convex\.config(?:\.[cm]?[jt]s)?["']""")
_APP_USE = re.compile(r"""\.use\(\s*([A-Za-z_$][\w$]*)\s*(?:,\s*\{[^{}]*?\bname\s*:\s*["']([^"']+)["'][^{}]*\})?\s*,?\s*\)""")
_DEFINE_COMPONENT = re.compile(r"""defineComponent\(\s*["']([^"']+)["']""")


def _default_component_name(package: str) -> str:
    last = package.rsplit("/", 1)[-1]
    head, *rest = re.split(r"[-_.]", last)
    return head + "".join(w[:1].upper() + w[1:] for w in rest)


def installed_components(config: str, local_names: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """``[(name, package), ...]`` of the components ``convex.config.ts`` installs, in ``use`` order.
    A local component's package is its folder relative to the config (``./jobs`` -> ``jobs``) and
    its default name the one its ``defineComponent`` gives (``local_names``: folder -> name)."""
    packages = {m.group(1): m.group(2) for m in _COMPONENT_IMPORT.finditer(config)}
    found = []
    for m in _APP_USE.finditer(config):
        package = packages.get(m.group(1))
        if package is None:
            continue
        if package.startswith("."):
            package = "./" + posixpath.normpath(package)
            default = (local_names or {}).get(package[2:]) or _default_component_name(package)
        else:
            default = _default_component_name(package)
        found.append((m.group(2) or default, package))
    return found


def _children_type(components: list[tuple[str, str]]) -> str:
    # The CLI imports a local child's ComponentApi by its folder, a package's by its name.
    return "".join(
        f'  {_key(name)}: import("{".." + package[1:] if package.startswith(".") else package}'
        f'/_generated/component.js").ComponentApi<"{name}">;\n'
        for name, package in components
    )


def _component_api_dts(modules: list[str], components: list[tuple[str, str]]) -> str:
    imports, entries = _module_lines(modules)
    return (
        "/* eslint-disable */\n"
        f"{imports}\n"
        "import type {\n  ApiFromModules,\n  FilterApi,\n  FunctionReference,\n} from \"convex/server\";\n\n"
        f"declare const fullApi: ApiFromModules<{{\n{entries}}}>;\n\n"
        "export declare const api: FilterApi<\n  typeof fullApi,\n  FunctionReference<any, \"public\">\n>;\n\n"
        "export declare const internal: FilterApi<\n  typeof fullApi,\n  FunctionReference<any, \"internal\">\n>;\n\n"
        f"export declare const components: {{\n{_children_type(components)}}};\n"
    )


_COMPONENT_API_JS = """/* eslint-disable */
import { anyApi, componentsGeneric } from "convex/server";

export const api = anyApi;
export const internal = anyApi;
export const components = componentsGeneric();
"""


def _local_api_ts(modules: list[str], components: list[tuple[str, str]]) -> str:
    """A local component's ``_generated/api.ts`` (the CLI's TypeScript variant)."""
    imports, entries = _module_lines(modules)
    return (
        "/* eslint-disable */\n"
        f"{imports}\n"
        "import type {\n  ApiFromModules,\n  FilterApi,\n  FunctionReference,\n} from \"convex/server\";\n"
        "import { anyApi, componentsGeneric } from \"convex/server\";\n\n"
        f"const fullApi: ApiFromModules<{{\n{entries}}}> = anyApi as any;\n\n"
        "export const api: FilterApi<\n  typeof fullApi,\n  FunctionReference<any, \"public\">\n> = anyApi as any;\n\n"
        "export const internal: FilterApi<\n  typeof fullApi,\n  FunctionReference<any, \"internal\">\n> = anyApi as any;\n\n"
        f"export const components = componentsGeneric() as unknown as {{\n{_children_type(components)}}};\n"
    )


# The CLI builds this type from the deployment's analysis (each public function's validators, ids
# as strings); offline the same shape comes from the modules' types. Handlers without a `returns`
# validator get their inferred type where the CLI says `any`.
_COMPONENT_TS_TYPES = """
type _PublicApi = FilterApi<ApiFromModules<{
%s}>, FunctionReference<any, "public">>;

type _CrossBoundary<T> = T extends GenericId<string>
  ? string
  : T extends ArrayBuffer
    ? T
    : T extends (infer U)[]
      ? _CrossBoundary<U>[]
      : T extends object
        ? { [K in keyof T]: _CrossBoundary<T[K]> }
        : T;

type _AsComponent<T, Name> = T extends FunctionReference<infer Type, "public", infer Args, infer Returns>
  ? FunctionReference<Type, "internal", _CrossBoundary<Args>, _CrossBoundary<Returns>, Name>
  : { [K in keyof T]: _AsComponent<T[K], Name> };

export type ComponentApi<Name extends string | undefined = string | undefined> = _AsComponent<_PublicApi, Name>;
"""


def _component_ts(modules: list[str]) -> str:
    imports, entries = _module_lines(modules)
    return (
        "/* eslint-disable */\n"
        'import type { ApiFromModules, FilterApi, FunctionReference } from "convex/server";\n'
        'import type { GenericId } from "convex/values";\n'
        f"{imports}" + _COMPONENT_TS_TYPES % entries
    )


_LOCAL_SERVER_TS = """/* eslint-disable */
import type {
  ActionBuilder,
  HttpActionBuilder,
  MutationBuilder,
  QueryBuilder,
  GenericActionCtx,
  GenericMutationCtx,
  GenericQueryCtx,
  GenericDatabaseReader,
  GenericDatabaseWriter,
} from "convex/server";
import {
  actionGeneric,
  httpActionGeneric,
  queryGeneric,
  mutationGeneric,
  internalActionGeneric,
  internalMutationGeneric,
  internalQueryGeneric,
} from "convex/server";
import type { DataModel } from "./dataModel.js";

export const query: QueryBuilder<DataModel, "public"> = queryGeneric;
export const internalQuery: QueryBuilder<DataModel, "internal"> = internalQueryGeneric;
export const mutation: MutationBuilder<DataModel, "public"> = mutationGeneric;
export const internalMutation: MutationBuilder<DataModel, "internal"> = internalMutationGeneric;
export const action: ActionBuilder<DataModel, "public"> = actionGeneric;
export const internalAction: ActionBuilder<DataModel, "internal"> = internalActionGeneric;
export const httpAction: HttpActionBuilder = httpActionGeneric;
export const env: Record<string, string | undefined> = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;

export type QueryCtx = GenericQueryCtx<DataModel>;
export type MutationCtx = GenericMutationCtx<DataModel>;
export type ActionCtx = GenericActionCtx<DataModel>;
export type DatabaseReader = GenericDatabaseReader<DataModel>;
export type DatabaseWriter = GenericDatabaseWriter<DataModel>;
"""


def _config(files: dict[str, str]) -> str | None:
    return next((files[c] for c in _CONFIG_FILES if c in files), None)


def generate(files: dict[str, str]) -> dict[str, str]:
    """The ``_generated/*`` files of the app and of each local component, for a project's
    ``files`` (paths relative to the project)."""
    convex = {p.removeprefix("convex/"): t for p, t in files.items() if p.startswith("convex/")}
    definitions = _definitions(convex)
    names = {d: (m.group(1) if (m := _DEFINE_COMPONENT.search(convex[f"{d}/convex.config.ts"])) else d.rsplit("/", 1)[-1])
             for d in definitions if d}
    out = {}
    for d, own in definitions.items():
        has_schema = "schema.ts" in own or "schema.js" in own
        config = _config(own)
        modules = entry_points(own)
        # Local names are relative to the config that installs them.
        children = (installed_components(config, {k.removeprefix(d + "/") if d else k: v for k, v in names.items()})
                    if config is not None else [])
        data_model = _DATA_MODEL_WITH_SCHEMA if has_schema else _DATA_MODEL_WITHOUT_SCHEMA
        if not d:
            out.update({
                "convex/_generated/api.d.ts": (_api_dts(modules) if config is None
                                               else _component_api_dts(modules, children)),
                "convex/_generated/api.js": _API_JS if config is None else _COMPONENT_API_JS,
                "convex/_generated/dataModel.d.ts": data_model,
                "convex/_generated/server.d.ts": _SERVER_DTS,
                "convex/_generated/server.js": _SERVER_JS,
            })
            continue
        out.update({
            f"convex/{d}/_generated/api.ts": _local_api_ts(modules, children),
            f"convex/{d}/_generated/component.ts": _component_ts(modules),
            f"convex/{d}/_generated/dataModel.ts": data_model,
            f"convex/{d}/_generated/server.ts": _LOCAL_SERVER_TS,
        })
    return out


def write_generated(project_dir: Path, files: dict[str, str]) -> None:
    for rel, text in generate(files).items():
        target = project_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
