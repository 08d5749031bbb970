#!/usr/bin/env node
// The agent's bin (dist/main.js, written by scripts/bundle.mjs). It runs the bundle, a CommonJS
// file, through a V8 code cache: every start after the first skips compiling ~800 KB of code and
// the functions the last run compiled, which was about a quarter of the CPU time until the tools
// are in hand. Node 20 has no `module.enableCompileCache`, so this does what it does: a `vm.Script`
// with `cachedData`, written at exit when there was none or V8 rejected it (another Node, other flags).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { constants, Script } from "node:vm";

// The bundle's file name carries a hash of its content, so a cache never outlives its bundle.
const BUNDLE = "agent.cjs";

const here = dirname(fileURLToPath(import.meta.url));
const file = join(here, BUNDLE);
const cacheFile = join(here, "v8-cache", `${BUNDLE}.${process.version}-${process.arch}.bin`);

let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  // The first start (or the folder cannot be written): compile from source.
}
const source = readFileSync(file, "utf8");
// The module wrapper of CommonJS, on one line so that line numbers stay the file's; a `#!` line becomes a comment.
const script = new Script(
  `(function (exports, require, module, __filename, __dirname) {${source.startsWith("#!") ? "//" : ""}${source}\n})`,
  { filename: file, cachedData, importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER },
);
if (cachedData === undefined || script.cachedDataRejected) {
  process.once("exit", () => {
    try {
      mkdirSync(dirname(cacheFile), { recursive: true });
      const temporary = `${cacheFile}.${process.pid}`;
      writeFileSync(temporary, script.createCachedData());
      renameSync(temporary, cacheFile);
    } catch {
      // A read-only install: no cache, the next start compiles again.
    }
  });
}

const require = createRequire(file);
const module = new Module(file);
module.filename = file;
// The lazy chunks `require` the bundle for the code they share with it: they must get this instance.
require.cache[file] = module;
script.runInThisContext()(module.exports, require, module, file, here);
module.loaded = true;
