import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import * as manager from "../src/index.js";

const packageDir = new URL("../", import.meta.url);

/** Every name `src/index.ts` exports, types included. */
async function exportedNames(): Promise<string[]> {
  const source = await readFile(new URL("src/index.ts", packageDir), "utf8");
  return [...source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s*from/g)].flatMap((match) =>
    match[1]!
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean),
  );
}

/**
 * The names the README's "API" section lists: in each bullet, the names in
 * backticks before the first ": " (what follows is a description).
 */
async function documentedNames(): Promise<string[]> {
  const readme = await readFile(new URL("README.md", packageDir), "utf8");
  const section = /\n## API\n([\s\S]*?)(?:\n## |$)/.exec(readme)?.[1];
  expect(section, "README.md has an API section").toBeDefined();
  const bullets = section!.split(/^- /m).slice(1);
  return bullets.flatMap((bullet) => {
    const names = bullet.replace(/\n\s*/g, " ").split(": ")[0]!;
    return [...names.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((match) => match[1]!);
  });
}

describe("the public API is the curated list in the README", () => {
  it("exports exactly the names the README's API section lists", async () => {
    const exported = (await exportedNames()).sort();
    const documented = (await documentedNames()).sort();
    expect(exported).toEqual(documented);
  });

  it("every value the README lists exists at run time", async () => {
    const source = await readFile(new URL("src/index.ts", packageDir), "utf8");
    const values = [...source.matchAll(/export\s+\{([^}]*)\}\s*from/g)].flatMap((match) =>
      match[1]!
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean),
    );
    for (const name of values) expect(manager, name).toHaveProperty(name);
  });

  it("keeps client internals out", () => {
    for (const internal of [
      "holdLaunches",
      "ProcessGroupStdioTransport",
      "createStdioTransport",
      "entriesOf",
    ]) {
      expect(manager).not.toHaveProperty(internal);
    }
  });
});
