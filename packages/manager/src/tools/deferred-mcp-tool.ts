import { MCPTool } from "./mcp-tool.js";

/**
 * A tool known from the cache while its server is still connecting. A
 * call first waits for the server (`waitForConnection`, bounded by the
 * server's `timeout` and by the call's signal), then goes through the live
 * connection. If the live server no longer lists the tool, the call returns
 * `MCP error: tool "<t>" is no longer provided by server "<s>"`; if the server
 * failed, the call returns its failure as `MCP error: …`.
 *
 * It behaves like {@link MCPTool}; the class tells a UI the definition came
 * from the cache.
 */
export class DeferredMCPTool extends MCPTool {}
