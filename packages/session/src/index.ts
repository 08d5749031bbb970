export type { AgentSessionOptions } from "./agent-session.js";
export { AgentSession } from "./agent-session.js";
export type {
  ConfigScope,
  NativeConfigFile,
  NativeConfigWriter,
  NativeConfigWriterOptions,
} from "./native-config-writer.js";
export { createNativeConfigWriter } from "./native-config-writer.js";
export { isValidServerName, SERVER_NAME_PATTERN } from "./server-name.js";
export { SessionMCPTool } from "./session-mcp-tool.js";
export type { ToolRegistry } from "./tool-registry.js";
export { createToolRegistry } from "./tool-registry.js";
