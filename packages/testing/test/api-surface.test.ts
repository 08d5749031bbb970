import { describeApiSection } from "../../../test-support/api-section.js";
import * as fixtures from "../src/fixtures.js";
import * as testing from "../src/index.js";

describeApiSection({
  packageDir: new URL("../", import.meta.url),
  entry: testing,
  internals: ["createFixtureMcpServer", "appendPidFileEntry", "toWebRequest", "deepSchemaText"],
  subpaths: { "@mcp-rt/testing/fixtures": fixtures },
});
