import { describeSignatures } from "../../../test-support/exported-signatures.js";

describeSignatures(new URL("../", import.meta.url), {
  // Not converted yet (issue 34): the error's (code, message, options), like Error(message, options),
  // and helpers of the internal subpaths `./explain`, `./contract` and `./util`.
  allowed: [
    "McpRtError.constructor",
    "approvalSummary",
    "CapabilitySourceFixture.writeServer",
    "plural",
    "readSecret",
    "writeJsonAtomic",
  ],
});
