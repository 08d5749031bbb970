import { TOOL_SEARCH_NAME } from "./model-tools.js";
import { LIST_RESOURCES_NAME, READ_RESOURCE_NAME } from "./resource-tools.js";
import { READ_RESULT_NAME } from "./spilled-text.js";

/**
 * The names of the session's own tools, which no server's tool may take:
 * the session passes them to the manager (`reservedToolNames`), so a server
 * named `read` with a tool `result` can never answer the model's reads of a
 * spilled result. A built-in tool added later is added here.
 */
export const BUILT_IN_TOOL_NAMES: readonly string[] = Object.freeze([
  TOOL_SEARCH_NAME,
  READ_RESULT_NAME,
  READ_RESOURCE_NAME,
  LIST_RESOURCES_NAME,
]);
