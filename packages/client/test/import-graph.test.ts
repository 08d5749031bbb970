import { importGraphTests } from "../../../test-support/import-graph.js";

importGraphTests({
  name: "the client package",
  src: new URL("../src/", import.meta.url),
  entry: "index.ts",
  minFiles: 40,
});
