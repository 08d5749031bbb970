import { describe, expect, it } from "vitest";
import { documentedNames, exportedNames } from "../../../test-support/api-section.js";
import * as manager from "../src/index.js";

const packageDir = new URL("../", import.meta.url);

describe("the public API is the curated list in the README", () => {
  it("exports exactly the names the README's API section lists", async () => {
    const exported = (await exportedNames(packageDir)).sort();
    const documented = await documentedNames(packageDir);
    expect(documented, "README.md has an API section").toBeDefined();
    expect(exported).toEqual(documented!.sort());
  });

  it("exports each name once, from one place", async () => {
    const exported = await exportedNames(packageDir);
    expect(exported.filter((name, at) => exported.indexOf(name) !== at)).toEqual([]);
  });

  it("every value the README lists exists at run time", async () => {
    const values = await exportedNames(packageDir, { values: true });
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
