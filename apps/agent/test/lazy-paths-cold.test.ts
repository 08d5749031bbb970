import { lazyPathSuite } from "./lazy-paths.js";

lazyPathSuite("cold");
