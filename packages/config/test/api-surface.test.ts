import { describeApiSurface } from "../../../test-support/api-surface.js";
import * as config from "../src/index.js";

describeApiSurface(new URL("../", import.meta.url), config);
