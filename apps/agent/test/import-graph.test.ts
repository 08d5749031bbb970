import { importGraphTests } from "../../../test-support/import-graph.js";

importGraphTests({
  name: "the agent",
  src: new URL("../src/", import.meta.url),
  entry: "main.ts",
  minFiles: 15,
});
