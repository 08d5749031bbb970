import { describeApiSection } from "../../../test-support/api-section.js";
import * as config from "../src/index.js";

describeApiSection({
  packageDir: new URL("../", import.meta.url),
  entry: config,
  internals: ["PROTOCOL_SETTINGS", "SourceMetaSchema", "resolveProjectDir", "REDACTED"],
});
