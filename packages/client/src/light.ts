// What a start path needs before it connects anything, without loading the MCP SDK (README "Light entry").

export { holdLaunches } from "./launch-turn.js";
export { DEFAULT_MAX_MESSAGE_BYTES } from "./max-message-bytes.js";
export { isSignInRequired } from "./oauth/sign-in-error.js";
export type { ToolLimitBreach, ToolLimits } from "./tool-limits.js";
export { DEFAULT_TOOL_LIMITS } from "./tool-limits.js";
