import { importGraphTests } from "../../../test-support/import-graph.js";

importGraphTests({
  name: "the config package",
  src: new URL("../src/", import.meta.url),
  entry: "index.ts",
  minFiles: 30,
});
