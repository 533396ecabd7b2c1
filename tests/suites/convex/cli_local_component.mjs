// What the Convex CLI writes for an app with one component defined inside it (convex/<dir>/ with
// convex.config.ts): the app's _generated/api.d.ts and the component's _generated/{api,server,
// dataModel}.ts, from the CLI's own template functions (convex/dist/esm/cli/codegen_templates) fed
// the analysis a push would return. component.ts is left out: the CLI builds it from the
// deployment's analysis of each function's validators, which only a push computes.
// The CLI's unrelated npm dependencies (chalk, zod, sentry, ...) are replaced by inert stubs.
//
// argv: <toolchain node_modules> <app convex dir> <out dir> <component folder> <component name>
// stdout: JSON {"api.d.ts", "<dir>/api.ts", "<dir>/server.ts", "<dir>/dataModel.ts"} (unformatted).
import { readdirSync, readFileSync, existsSync, statSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [nm, dir, out, folder, name] = process.argv.slice(2);
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

async function templates(file) {
  const bundled = await esbuild.build({
    entryPoints: [join(nm, "convex", "dist", "esm", "cli", "codegen_templates", `${file}.js`)],
    bundle: true, platform: "node", format: "esm", write: false, plugins: [stub], logLevel: "error",
  });
  const path = join(out, `${file}.bundle.mjs`);
  writeFileSync(path, bundled.outputFiles[0].text);
  return await import(pathToFileURL(path).href);
}
const { componentApiDTS, componentApiTSWithTypes } = await templates("component_api");
const { componentServerTS } = await templates("component_server");
const { dynamicDataModelTS } = await templates("dataModel");

const fs = {
  exists: (p) => existsSync(p),
  readUtf8File: (p) => readFileSync(p, "utf8"),
  listDir: (p) => readdirSync(p, { withFileTypes: true }),
  stat: (p) => statSync(p),
};
const ctx = { fs, crash: async (e) => { throw new Error(e.printedMessage); } };
const root = { isRoot: true, path: dir, definitionPath: join(dir, "convex.config.ts") };
const local = { isRoot: false, path: join(dir, folder), definitionPath: join(dir, folder, "convex.config.ts") };
const componentsMap = new Map([[join(dir, folder), { importSpecifier: `./${folder}/convex.config` }]]);
const startPush = {
  analysis: {
    "": { definition: { childComponents: [{ name, path: folder }] } },
    [folder]: { definition: { childComponents: [] } },
  },
};
const opts = { staticApi: false, useComponentApiImports: true };
process.stdout.write(JSON.stringify({
  "api.d.ts": await componentApiDTS(ctx, startPush, root, root, componentsMap, opts),
  [`${folder}/api.ts`]: await componentApiTSWithTypes(ctx, startPush, root, local, componentsMap, opts),
  // No env vars: as the offline codegen of the app (`--system-udfs`), env stays a plain record.
  [`${folder}/server.ts`]: componentServerTS(false, undefined),
  [`${folder}/dataModel.ts`]: dynamicDataModelTS(),
}));
