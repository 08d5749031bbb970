import { describeApiSection } from "../../../test-support/api-section.js";
import * as session from "../src/index.js";

describeApiSection({
  packageDir: new URL("../", import.meta.url),
  entry: session,
  internals: ["MCPCommandContext", "NativeTools", "reserveExa", "ProjectTrustPolicy", "MCP_COMMANDS"],
});
