// The agent is one bundle of what `tsc -b` emitted to dist/tsc and of every package it imports:
// Node then reads a few files instead of ~260 ES modules, which was most of the time before the
// tools are in hand. Code the start path reaches only through a dynamic `import()` (`@mcp-rt/client`,
// the MCP SDK, the transports, Redis, `open`) stays in chunks loaded after. The bundle is CommonJS,
// dist/agent-<hash>.cjs, so that the bin, dist/main.js (scripts/main-loader.cjs), can run it through
// a V8 code cache. dist/bundle-modules.json lists the modules in each output file (the start-path
// test reads it).
//
// What the bin reads before the tools are in hand is kept small and cheap to turn into a string:
// no JSDoc (the source maps keep the sources), non-ASCII characters escaped so that the file is
// read as a one-byte string, and the entry file holds the CommonJS function wrapper itself, so
// that the bin hands V8 the file as read instead of a 640 KB concatenation.
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";
import { assertNoDynamicImport } from "./no-dynamic-import.mjs";

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
  treeshake: {
    // jsonc-parser's string-intern.js fills 1,200 strings of spaces at load for its formatter, which
    // the agent does not use (it only parses): dropped when nothing imports from it.
    moduleSideEffects: (id) =>
      /[\\/]jsonc-parser[\\/]lib[\\/]esm[\\/]impl[\\/]string-intern\.js$/.test(id) ? false : undefined,
  },
  logLevel: "warn",
});
const { output } = await bundle.write({
  dir: dist,
  format: "cjs",
  entryFileNames: "agent-[hash].cjs",
  chunkFileNames: "[name]-[hash].cjs",
  sourcemap: true,
  // Legal comments stay; JSDoc goes (~180 KB of the entry file), and so do bundler annotations.
  comments: { legal: true, annotation: false, jsdoc: false },
  charset: "ascii",
  // The entry file runs through `vm.Script` with a code cache (scripts/main-loader.cjs), where an
  // `import()` has no loader once V8 accepted the cache: an external one (`node:child_process`)
  // becomes a `require`. Chunks are loaded through `require` already.
  dynamicImportInCjs: false,
});
await bundle.close();

const entry = output.find((file) => file.type === "chunk" && file.isEntry);
const entryFile = join(dist, entry.fileName);
assertNoDynamicImport(entry.fileName, entry.code);
const WRAPPER = "(function (exports, require, module, __filename, __dirname) {";
let code = await readFile(entryFile, "utf8");
if (code.startsWith("#!")) {
  // The `#!` line becomes a comment on the wrapper's line: every line keeps its number, the map holds.
  code = `${WRAPPER}//${code}\n})`;
} else {
  code = `${WRAPPER}\n${code}\n})`;
  const mapFile = `${entryFile}.map`;
  const map = JSON.parse(await readFile(mapFile, "utf8"));
  map.mappings = `;${map.mappings}`;
  await writeFile(mapFile, JSON.stringify(map));
}
await writeFile(entryFile, code);
// An ASCII file reads the same as latin1, which Node turns into a string faster than UTF-8 (a legal
// comment can hold other characters: then UTF-8, as the code cache must see the same source).
// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range
const encoding = /^[\x00-\x7f]*$/.test(code) ? "latin1" : "utf8";

const template = await readFile(join(app, "scripts", "main-loader.cjs"), "utf8");
let loader = template;
for (const [line, filled] of [
  ['const BUNDLE = "agent.cjs";', `const BUNDLE = ${JSON.stringify(entry.fileName)};`],
  ['const ENCODING = "utf8";', `const ENCODING = ${JSON.stringify(encoding)};`],
]) {
  if (!loader.includes(line)) throw new Error(`scripts/main-loader.cjs: no \`${line}\` line to fill in`);
  loader = loader.replace(line, filled);
}
await writeFile(join(dist, "main.js"), loader, { mode: 0o755 });
// The bin is CommonJS (Node starts it without its ES module loader, ~10 ms less); dist/tsc stays ESM.
await writeFile(join(dist, "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);
await mkdir(join(dist, "tsc"), { recursive: true });
await writeFile(join(dist, "tsc", "package.json"), `${JSON.stringify({ type: "module" })}\n`);

const modules = {};
for (const file of output) {
  if (file.type === "chunk") modules[file.fileName] = file.moduleIds.map((id) => relative(root, id));
}
await writeFile(join(dist, "bundle-modules.json"), `${JSON.stringify(modules, null, 2)}\n`);
