import { describeApiSection } from "../../../test-support/api-section.js";
import * as client from "../src/index.js";
import * as light from "../src/light.js";

describeApiSection({
  packageDir: new URL("../", import.meta.url),
  entry: client,
  internals: [
    "ServerConnection",
    "getConnectionInternals",
    "toConnectError",
    "toRequestError",
    "markSignInNeed",
  ],
  subpaths: { "@mcp-rt/client/light": light },
});
