import { describeExportedSignatures } from "../../../test-support/exported-signatures.js";

describeExportedSignatures({
  name: "the manager",
  entry: new URL("../src/index.ts", import.meta.url),
  sample: "MCPManager.connectServers",
  // The host's tool seam (SPEC §5): `execute(toolCallId, params, signal, onUpdate)`, and the tools that implement it.
  fixed: ["CustomTool.execute", "MCPTool.execute"],
});
