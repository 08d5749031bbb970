import { importGraphTests } from "../../../test-support/import-graph.js";

importGraphTests({
  name: "the cache package",
  src: new URL("../src/", import.meta.url),
  entry: "index.ts",
  minFiles: 15,
});
