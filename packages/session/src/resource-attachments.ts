import type { MCPManager } from "@mcp-rt/manager";

/** One `@<server>:<uri>` of a prompt line, read. */
export interface ResourceAttachment {
  server: string;
  uri: string;
  /** The resource as text: its text inline, binary content as a note with its size and type, or `MCP error: …`. */
  text: string;
  /** True when it could not be read. */
  isError: boolean;
}

/** What {@link attachResources} made of a prompt line. */
export interface AttachedLine {
  /** The line, followed by each attachment's text in a block that names it. */
  text: string;
  attachments: ResourceAttachment[];
}

const MENTION = /(^|\s)@([A-Za-z0-9_.-]{1,100}):(\S+)/g;

/**
 * Finds `@<server>:<uri>` in a prompt line, for servers the manager knows,
 * and reads each resource (through the tool result budget). Other `@` words
 * (an e-mail address, a handle) are left alone.
 */
export async function attachResources(options: {
  manager: MCPManager;
  line: string;
  signal?: AbortSignal | undefined;
}): Promise<AttachedLine> {
  const { manager, line, signal } = options;
  const known = new Set(manager.getServerStates().map((state) => state.name));
  const wanted = new Map<string, { server: string; uri: string }>();
  for (const match of line.matchAll(MENTION)) {
    const server = match[2] ?? "";
    const uri = (match[3] ?? "").replace(/[),.;:!?]+$/, "");
    if (known.has(server) && uri) wanted.set(`${server}:${uri}`, { server, uri });
  }
  const attachments = await Promise.all(
    [...wanted.values()].map(async ({ server, uri }): Promise<ResourceAttachment> => {
      const result = await manager.readResourceResult({ server, uri, signal });
      const text = result.content
        .map((block) => (block.type === "text" ? block.text : `[image ${block.mimeType}]`))
        .join("\n");
      return { server, uri, text, isError: result.isError === true };
    }),
  );
  const blocks = attachments.map(
    (attachment) =>
      `<attachment server="${attachment.server}" uri="${attachment.uri}">\n${attachment.text}\n</attachment>`,
  );
  return { text: blocks.length > 0 ? `${line}\n\n${blocks.join("\n\n")}` : line, attachments };
}
