import { importGraphTests } from "../../../test-support/import-graph.js";

importGraphTests({
  name: "the session",
  src: new URL("../src/", import.meta.url),
  entry: "index.ts",
  minFiles: 20,
});
