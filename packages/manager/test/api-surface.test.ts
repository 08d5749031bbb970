import { describeApiSection } from "../../../test-support/api-section.js";
import * as manager from "../src/index.js";

describeApiSection({
  packageDir: new URL("../", import.meta.url),
  entry: manager,
  // Client internals stay out of the manager's entry too.
  internals: ["holdLaunches", "ProcessGroupStdioTransport", "createStdioTransport", "entriesOf"],
});
