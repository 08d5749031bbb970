import { describeExportedSignatures } from "../../../test-support/exported-signatures.js";

describeExportedSignatures({
  name: "the config package",
  entry: new URL("../src/index.ts", import.meta.url),
  sample: "loadAllMCPConfigs",
  // The error's `(code, message, options)`, in the shape of `Error(message, options)` (109 call sites).
  fixed: ["new McpRtError"],
});
