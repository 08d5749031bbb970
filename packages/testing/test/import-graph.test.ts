import { describeImportGraph } from "../../../test-support/import-graph.js";

describeImportGraph("testing", new URL("../src/", import.meta.url));
