import { lazyPathSuite } from "./lazy-paths.js";

lazyPathSuite("warm");
