import { describe, expect, it } from "vitest";
import { documentedNames, exportedNames } from "../../../test-support/api-section.js";
import * as config from "../src/index.js";

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
      expect(config, name).toHaveProperty(name);
    }
  });

  it("keeps the internals out of the root entry", () => {
    for (const internal of ["PROTOCOL_SETTINGS", "SourceMetaSchema", "resolveProjectDir", "REDACTED"]) {
      expect(config).not.toHaveProperty(internal);
    }
  });
});
