import { describeExportedSignatures } from "../../../test-support/exported-signatures.js";

describeExportedSignatures({
  name: "the client",
  entry: new URL("../src/index.ts", import.meta.url),
  sample: "connectToServer",
});
