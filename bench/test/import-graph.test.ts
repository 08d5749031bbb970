import { importGraphTests } from "../../test-support/import-graph.js";

importGraphTests({
  name: "the bench",
  src: new URL("../src/", import.meta.url),
  entry: "cli.ts",
  minFiles: 30,
});
