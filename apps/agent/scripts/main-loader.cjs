#!/usr/bin/env node
// The agent's bin (dist/main.js, written by scripts/bundle.mjs). It runs the bundle through a V8
// code cache: every start after the first skips compiling ~650 KB of code and the functions the
// first one compiled until its tools were in hand (bench/README.md, "The agent's start path", has
// what that saves). Node 20 has no `module.enableCompileCache`, so this does what it does: a
// `vm.Script` with `cachedData`, written when there was none or V8 rejected it (another Node, other
// flags).
//
// A script made from an accepted code cache has no dynamic import callback, so the bundle holds no
// `import()` (scripts/bundle.mjs fails the build when it would).
//
// This file is CommonJS (dist/package.json says so): Node runs it without starting its ES module
// loader before the first line of the agent.
"use strict";
const { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, writeFileSync } = require("node:fs");
const { createRequire, Module } = require("node:module");
const { dirname, join } = require("node:path");
const { Script } = require("node:vm");

// The bundle's file name carries a hash of its content, so a cache never outlives its bundle.
const BUNDLE = "agent.cjs";
// "latin1" when the bundle is ASCII (the build escapes other characters): the same string as
// UTF-8 would give, made faster.
const ENCODING = "utf8";

const file = join(__dirname, BUNDLE);
// MCP_RT_AGENT_CODE_CACHE_DIR moves the cache (tests running side by side each keep their own).
const cacheDir = process.env.MCP_RT_AGENT_CODE_CACHE_DIR || join(__dirname, "v8-cache");
const cacheFile = join(cacheDir, `${BUNDLE}.${process.version}-${process.arch}.bin`);

/** Reads up to `size` bytes of `fd` into the start of `buffer`; returns how many it read. */
function readInto(fd, buffer, size) {
  let read = 0;
  while (read < size) {
    const got = readSync(fd, buffer, read, size - read, read);
    if (got === 0) break;
    read += got;
  }
  return read;
}

/** The code cache's file, open; undefined on the first start (or when it cannot be read). */
function openCache() {
  try {
    const fd = openSync(cacheFile, "r");
    return { fd, size: fstatSync(fd).size };
  } catch {
    return undefined;
  }
}

/**
 * The bundle's source and its code cache, read through one buffer: the bundle into it and made a
 * string, then the cache over it: memory a process touches for the first time costs a page fault
 * for every 4 KB, so the cache gets no buffer of its own.
 */
function readBundle() {
  const fd = openSync(file, "r");
  const cache = openCache();
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.allocUnsafeSlow(Math.max(size, cache?.size ?? 0));
    const source = buffer.toString(ENCODING, 0, readInto(fd, buffer, size));
    let cachedData;
    try {
      if (cache) cachedData = buffer.subarray(0, readInto(cache.fd, buffer, cache.size));
    } catch {
      // Unreadable: compiled from source, and written again.
    }
    return { source, cachedData };
  } finally {
    closeSync(fd);
    if (cache) closeSync(cache.fd);
  }
}

// The file is the bundle inside the CommonJS module wrapper, `(function (exports, require, module,
// __filename, __dirname) {…})` (the build puts it there): V8 gets the string as read.
const { source, cachedData } = readBundle();
const script = new Script(source, { filename: file, cachedData });
if (cachedData === undefined || script.cachedDataRejected) {
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    try {
      mkdirSync(dirname(cacheFile), { recursive: true });
      const temporary = `${cacheFile}.${process.pid}`;
      writeFileSync(temporary, script.createCachedData());
      renameSync(temporary, cacheFile);
    } catch {
      // A read-only install: no cache, the next start compiles again.
    }
  };
  // Written when the agent has its tools in hand (main.ts emits this), so that the cache holds
  // what the start path compiled. One written at exit held the whole run's functions (a first,
  // cold start's server handling and cache writes), larger and slower to load on every start. At
  // exit only when the agent never got there (--help, an error).
  process.once("mcp-rt-agent:start-path-done", write);
  process.once("exit", write);
}

const bundleRequire = createRequire(file);
const bundleModule = new Module(file);
bundleModule.filename = file;
// The lazy chunks `require` the bundle for the code they share with it: they must get this instance.
bundleRequire.cache[file] = bundleModule;
script.runInThisContext()(bundleModule.exports, bundleRequire, bundleModule, file, __dirname);
bundleModule.loaded = true;
