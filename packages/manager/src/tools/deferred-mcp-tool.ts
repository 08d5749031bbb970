import { MCPTool } from "./mcp-tool.js";

/**
 * A tool known from the cache while its server is still connecting. A
 * call first waits for the server (`waitForConnection`, bounded by the
 * server's `timeout` and by the call's signal), then goes through the live
 * connection. If the live server no longer lists the tool, the call returns
 * `MCP error: tool "<t>" is no longer provided by server "<s>"`; if the server
 * failed, the call returns its failure as `MCP error: …`.
 *
 * Why a class with no members of its own: calls already behave this way on
 * {@link MCPTool} (a call to a server still connecting waits for it), so
 * there is nothing to override. The type is the design document's name
 * (SPEC §5), and the class itself is the information: `tool instanceof
 * DeferredMCPTool` tells a UI that the definition came from the cache, and
 * tells the manager to replace the tool by a live `MCPTool` once the server
 * has listed its tools.
 */
export class DeferredMCPTool extends MCPTool {}
