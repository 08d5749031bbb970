import { describeImportGraph } from "../../../test-support/import-graph.js";

describeImportGraph("config", new URL("../src/", import.meta.url));
