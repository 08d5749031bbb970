// The agent is one bundle of what `tsc -b` emitted to dist/tsc and of every package it imports:
// Node then reads a few files instead of ~260 ES modules, which was most of the time before the
// tools are in hand. Code the start path reaches only through a dynamic `import()` (`@mcp-rt/client`,
// the MCP SDK, the transports, Redis, `open`) stays in chunks loaded after. The bundle is CommonJS,
// dist/agent-<hash>.cjs, so that the bin, dist/main.js (scripts/main-loader.js), can run it through
// a V8 code cache. dist/bundle-modules.json lists the modules in each output file (the start-path
// test reads it).
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";

const app = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(app, "dist");
const root = join(app, "..", "..");

/**
 * Each module keeps its own `import.meta.url`: a package that finds a file next to itself (the
 * fixture server of `@mcp-rt/testing`, a `createRequire` of its own dependencies, `package.json`)
 * still finds it. The URL is written relative to the output folder, so the built tree can move.
 */
const ownImportMetaUrl = {
  name: "own-import-meta-url",
  transform: {
    filter: { code: "import.meta.url" },
    handler(code, id) {
      if (id.startsWith("\0")) return null;
      const path = relative(dist, id).split("\\").join("/");
      const url = `new URL(${JSON.stringify(path)}, import.meta.url).href`;
      return { code: code.replace(/\bimport\.meta\.url\b/g, url), map: null };
    },
  },
};

// Output files of an earlier build (file names carry a hash) and their code caches; dist/tsc is tsc's.
for (const entry of await readdir(dist, { withFileTypes: true })) {
  if (entry.name !== "tsc") await rm(join(dist, entry.name), { recursive: true });
}

const bundle = await rolldown({
  input: join(dist, "tsc", "main.js"),
  platform: "node",
  // jsonc-parser's `main` is a UMD build that does not survive bundling; its `module` is ESM.
  resolve: { mainFields: ["module", "main"] },
  plugins: [ownImportMetaUrl],
  logLevel: "warn",
});
const { output } = await bundle.write({
  dir: dist,
  format: "cjs",
  entryFileNames: "agent-[hash].cjs",
  chunkFileNames: "[name]-[hash].cjs",
  sourcemap: true,
});
await bundle.close();

const entry = output.find((file) => file.type === "chunk" && file.isEntry);
const template = await readFile(join(app, "scripts", "main-loader.js"), "utf8");
const loader = template.replace(
  'const BUNDLE = "agent.cjs";',
  `const BUNDLE = ${JSON.stringify(entry.fileName)};`,
);
if (loader === template)
  throw new Error('scripts/main-loader.js: no `const BUNDLE = "agent.cjs";` line to fill in');
await writeFile(join(dist, "main.js"), loader, { mode: 0o755 });

const modules = {};
for (const file of output) {
  if (file.type === "chunk") modules[file.fileName] = file.moduleIds.map((id) => relative(root, id));
}
await writeFile(join(dist, "bundle-modules.json"), `${JSON.stringify(modules, null, 2)}\n`);
