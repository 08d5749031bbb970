/** One block of a tool's output, as an agent's model sees it. */
export type ToolResultContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string };

/** Facts about a tool call kept next to its output, for UIs and logs. */
export interface ToolResultDetails {
  /** The server's config name. */
  serverName: string;
  /** The tool's name as the server lists it. */
  mcpToolName: string;
  /** True when the tool reported an error or the call failed. */
  isError: boolean;
  /** The server's result as received (undefined when no result arrived). */
  rawContent: unknown;
  /** The config source's provider id, when known. */
  provider?: string | undefined;
  /** The config source's display name, when known. */
  providerName?: string | undefined;
  /**
   * Set when the tool has an `outputSchema` and its `structuredContent` does
   * not match it (or is missing): what is wrong. The content is delivered all
   * the same; the mismatch is the server's, reported here for UIs and logs.
   */
  structuredContentError?: string;
  /**
   * Set only when `resultCharLimit` cut the text of `content`: the content as
   * it was before the cut (the same blocks the model would have seen, not
   * the server's raw result), so that a session can keep the whole text
   * (`resultSpill`) instead of losing it.
   */
  uncutContent?: ToolResultContent[];
}

/** What a tool call returns. */
export interface ToolResult {
  /** Text and images, in the server's order. */
  content: ToolResultContent[];
  /** True when the tool reported an error or the call failed. */
  isError?: boolean;
  details: ToolResultDetails;
}

/** A tool as an agent's tool registry takes it. */
export interface CustomTool {
  /** `mcp_<server>_<tool>` (see `createMCPToolName`); final when the manager builds it. */
  name: string;
  /** `<server>/<tool>`: the config name and the original tool name. */
  label: string;
  /** The tool's description, as the server gives it. */
  description: string;
  /** The tool's JSON Schema for its arguments (`inputSchema`). */
  parameters: object;
  /**
   * Runs the tool. Failures come back as `MCP error: …` content with `isError`;
   * only an abort rejects (with an `AbortError`).
   */
  execute(
    toolCallId: string,
    params: unknown,
    signal?: AbortSignal,
    onUpdate?: (partial: ToolResult) => void,
  ): Promise<ToolResult>;
}

/** A tool returned by the loader, with where it came from. */
export interface LoadedCustomTool {
  /** Which server and config it came from: `mcp:<server> via <providerName>`, or `mcp:<server>` when the source is unknown (see `toolOrigin`). */
  origin: string;
  tool: CustomTool;
}
