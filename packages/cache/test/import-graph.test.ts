import { describeImportGraph } from "../../../test-support/import-graph.js";

describeImportGraph("cache", new URL("../src/", import.meta.url));
