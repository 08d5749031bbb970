import { z } from "zod/mini";
import en from "zod/v4/locales/en.js";

// mcp-rt's schemas are built with zod/mini: the checks of zod's classic API, built at about a third of
// its cost and without loading the classic API, on the start path, where every schema is built and
// parsed before the tools are in hand. zod/mini leaves messages to a locale, which the classic API
// sets when it loads; set here too, the same English messages whether or not it ever loads.
z.config(en());

export { z };
