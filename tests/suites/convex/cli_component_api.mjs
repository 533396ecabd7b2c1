// What the Convex CLI's own component codegen writes for an app's convex/_generated/api.{d.ts,js}.
//
// The CLI writes `components` only after a push (the deployment analyses convex.config.ts), so it
// cannot run offline. This script runs the CLI's template functions themselves
// (convex/dist/esm/cli/codegen_templates/component_api.js) on the analysis a push would return:
// the app's child components, each named and imported from its package. The CLI's unrelated npm
// dependencies (chalk, zod, sentry, ...) are replaced by inert stubs when bundling the templates.
//
// argv: <toolchain node_modules> <project dir> <out dir> <JSON [[name, package], ...]>
// stdout: JSON {"api.d.ts": ..., "api.js": ...} (unformatted: the CLI runs prettier afterwards).
import { readdirSync, readFileSync, existsSync, statSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [nm, dir, out, childrenJson] = process.argv.slice(2);
const esbuild = await import(pathToFileURL(join(nm, "esbuild", "lib", "main.js")).href);

const stub = {
  name: "stub",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (a) => {
      if (a.path.startsWith("node:") || builtinModules.includes(a.path)) return null;
      const src = readFileSync(a.importer, "utf8");
      const names = new Set();
      const quoted = a.path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
      const re = new RegExp(`import\\s*(?:[\\w$]+\\s*,\\s*)?\\{([^}]*)\\}\\s*from\\s*["']${quoted}["']`, "g");
      for (const m of src.matchAll(re)) {
        for (const n of m[1].split(",")) {
          const k = n.trim().split(/\s+as\s+/)[0];
          if (k) names.add(k);
        }
      }
      return { path: a.path, namespace: "stub", pluginData: [...names] };
    });
    b.onLoad({ filter: /.*/, namespace: "stub" }, (a) => ({
      loader: "js",
      contents:
        "const t = function () {}; const p = new Proxy(t, { get: (o, k) => (k in o ? o[k] : p), apply: () => p, construct: () => p });\n" +
        `for (const n of ${JSON.stringify(a.pluginData || [])}) t[n] = p;\nmodule.exports = p;`,
    }));
  },
};
const bundled = await esbuild.build({
  entryPoints: [join(nm, "convex", "dist", "esm", "cli", "codegen_templates", "component_api.js")],
  bundle: true, platform: "node", format: "esm", write: false, plugins: [stub], logLevel: "error",
});
const templates = join(out, "component_api.bundle.mjs");
writeFileSync(templates, bundled.outputFiles[0].text);
const { componentApiDTS, componentApiJs } = await import(pathToFileURL(templates).href);

const fs = {
  exists: (p) => existsSync(p),
  readUtf8File: (p) => readFileSync(p, "utf8"),
  listDir: (p) => readdirSync(p, { withFileTypes: true }),
  stat: (p) => statSync(p),
};
const ctx = { fs, crash: async (e) => { throw new Error(e.printedMessage); } };
const root = { isRoot: true, path: dir, definitionPath: join(dir, "convex.config.ts") };
const componentsMap = new Map();
const childComponents = JSON.parse(childrenJson).map(([name, pkg]) => {
  const path = `node_modules/${pkg}/dist/component`;
  componentsMap.set(join(dir, path), { importSpecifier: pkg });
  return { name, path };
});
const startPush = { analysis: { "": { definition: { childComponents } } } };
const dts = await componentApiDTS(ctx, startPush, root, root, componentsMap, { staticApi: false, useComponentApiImports: true });
process.stdout.write(JSON.stringify({ "api.d.ts": dts, "api.js": componentApiJs() }));
