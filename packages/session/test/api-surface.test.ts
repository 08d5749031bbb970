import { describe, expect, it } from "vitest";
import { documentedNames, exportedNames } from "../../../test-support/api-section.js";
import * as session from "../src/index.js";

const packageDir = new URL("../", import.meta.url);

describe("the public API is the curated list in the README", () => {
  it("exports exactly the names the README's API section lists, each once", async () => {
    const exported = await exportedNames(packageDir);
    const documented = await documentedNames(packageDir);
    expect(documented, "README.md has an API section").toBeDefined();
    expect(new Set(exported).size, "a name has one import path").toBe(exported.length);
    expect(exported.sort()).toEqual(documented!.sort());
  });

  it("every value the README lists exists at run time", async () => {
    for (const name of await exportedNames(packageDir, { values: true })) {
      expect(session, name).toHaveProperty(name);
    }
  });

  it("keeps the session's internals out", () => {
    for (const internal of [
      "MCPCommandContext",
      "NativeTools",
      "reserveExa",
      "ProjectTrustPolicy",
      "MCP_COMMANDS",
    ]) {
      expect(session).not.toHaveProperty(internal);
    }
  });
});
