import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importGraph } from "../../../test-support/import-graph.js";

const src = fileURLToPath(new URL("../src/", import.meta.url));

/** A path of the graph with `/` between its parts, whatever the platform. */
const posix = (path: string): string => path.replaceAll("\\", "/");

/**
 * Each import that leaves `folder` from a file inside it, as `file → target`
 * (paths relative to `src`). Other packages and the SDK are imported by name,
 * so they are not in the graph and never count.
 */
function importsLeaving(graph: ReadonlyMap<string, readonly string[]>, folder: string): string[] {
  const inside = (path: string): boolean => posix(path).startsWith(`${folder}/`);
  const leaving: string[] = [];
  for (const [file, targets] of graph) {
    if (!inside(file)) continue;
    for (const target of targets) if (!inside(target)) leaving.push(`${posix(file)} → ${posix(target)}`);
  }
  return leaving;
}

describe("oauth/ imports nothing from the rest of the client", () => {
  it("finds each import that leaves the folder in a planted graph, and none that comes in", () => {
    const planted = new Map<string, string[]>([
      ["oauth/session.ts", ["oauth/flow.ts", "remote/fetch.ts"]],
      // A sibling whose name starts like the folder is outside it.
      ["oauth/flow.ts", ["oauth-text.ts"]],
      ["oauth-text.ts", []],
      ["remote/fetch.ts", ["oauth/session.ts"]],
      ["connect.ts", ["oauth/session.ts", "remote/fetch.ts"]],
    ]);
    expect(importsLeaving(planted, "oauth")).toEqual([
      "oauth/session.ts → remote/fetch.ts",
      "oauth/flow.ts → oauth-text.ts",
    ]);
  });

  it("holds for src/oauth/: the rest imports from it, it imports only from itself", () => {
    const graph = importGraph(src);
    const oauthFiles = [...graph.keys()].filter((file) => posix(file).startsWith("oauth/"));
    expect(oauthFiles.length).toBeGreaterThan(10);
    expect(graph.get("oauth/oauth-session.ts")).toContain("oauth/sign-in-flow.ts");
    expect(importsLeaving(graph, "oauth")).toEqual([]);
  });
});
