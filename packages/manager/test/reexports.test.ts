import { readFile } from "node:fs/promises";
import * as cache from "@mcp-rt/cache";
import * as client from "@mcp-rt/client";
import * as config from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import * as manager from "../src/index.js";

const packagesDir = new URL("../../", import.meta.url);

/** Names exported by an index.ts, split into types and values. */
async function exportedNames(path: URL): Promise<Array<{ name: string; from: string; type: boolean }>> {
  const source = await readFile(path, "utf8");
  return [...source.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s*from\s*"([^"]+)"/g)].flatMap((match) =>
    match[2]!
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => ({ name, from: match[3]!, type: Boolean(match[1]) })),
  );
}

describe("installing only @mcp-rt/manager is enough", () => {
  it.each([
    ["config", config],
    ["client", client],
    ["cache", cache],
  ] as const)("re-exports every runtime export of @mcp-rt/%s, as the same object", (_name, module) => {
    for (const [name, value] of Object.entries(module)) {
      expect(manager, name).toHaveProperty(name);
      expect((manager as Record<string, unknown>)[name], name).toBe(value);
    }
  });

  it.each(["config", "client", "cache"])(
    "re-exports every type and value name of @mcp-rt/%s",
    async (pkg) => {
      const theirs = await exportedNames(new URL(`${pkg}/src/index.ts`, packagesDir));
      const ours = await exportedNames(new URL("manager/src/index.ts", packagesDir));
      const reexported = new Set(
        ours.filter((e) => e.from === `@mcp-rt/${pkg}`).map((e) => `${e.type}:${e.name}`),
      );
      const missing = theirs.filter((e) => !reexported.has(`${e.type}:${e.name}`)).map((e) => e.name);
      expect(missing).toEqual([]);
    },
  );
});
