import { describeSignatures } from "../../../test-support/exported-signatures.js";

describeSignatures(new URL("../", import.meta.url));
