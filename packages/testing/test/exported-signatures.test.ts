import { describeExportedSignatures } from "../../../test-support/exported-signatures.js";

describeExportedSignatures({
  name: "the testing package",
  entry: new URL("../src/index.ts", import.meta.url),
  sample: "fixtureServer",
});
