import { describeExportedSignatures } from "../../../test-support/exported-signatures.js";

describeExportedSignatures({
  name: "the session",
  entry: new URL("../src/index.ts", import.meta.url),
  sample: "createAgentSession",
  // The host's tool seam (SPEC §5), which the session's MCP tools implement.
  fixed: ["SessionMCPTool.execute"],
});
