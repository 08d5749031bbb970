import { describeExportedSignatures } from "../../../test-support/exported-signatures.js";

describeExportedSignatures({
  name: "the cache",
  entry: new URL("../src/index.ts", import.meta.url),
  sample: "MCPToolCache.set",
});
