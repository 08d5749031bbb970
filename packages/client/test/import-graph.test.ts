import { describeImportGraph } from "../../../test-support/import-graph.js";

describeImportGraph("client", new URL("../src/", import.meta.url));
