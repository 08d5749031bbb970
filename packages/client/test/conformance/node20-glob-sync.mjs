// Loaded with `node --import` to run @modelcontextprotocol/conformance on Node 20:
// the suite imports `globSync` from "fs", which Node adds only in 22. On such a
// Node this registers a resolve hook that hands the suite (and nothing else) a
// copy of "fs" that has one; on Node 22+ it does nothing.
import fs from "node:fs";
import { register } from "node:module";
import { isMainThread } from "node:worker_threads";

const SHIM = new URL("./fs-with-glob-sync.mjs", import.meta.url).href;

if (isMainThread && typeof fs.globSync !== "function") register(import.meta.url);

/** The resolve hook (runs on the loader thread). */
export async function resolve(specifier, context, nextResolve) {
  if (
    (specifier === "fs" || specifier === "node:fs") &&
    context.parentURL?.includes("/@modelcontextprotocol/conformance/")
  ) {
    return { url: SHIM, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
