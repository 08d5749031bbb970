import { type ConfigIssue, McpRtError } from "@mcp-rt/config";
import { errorMessage } from "@mcp-rt/config/util";

/**
 * Something that kept a server, a file or the whole discovery from loading,
 * with the error as raised: what a UI needs to explain it.
 * - `file`: a config file could not be read, or an entry in it is invalid
 *   (`path` is the file, `server` the entry when there is one);
 * - `server`: a server failed to connect or list its tools (`server`);
 * - `discovery`: discovery itself threw (nothing was loaded);
 * - `cache`: the tool cache could not be opened (`path` is its URL); startup
 *   went on without it.
 */
export interface MCPLoadProblem {
  kind: "file" | "server" | "discovery" | "cache";
  /** The config file, or the cache URL. */
  path?: string;
  /** The server it is about. */
  server?: string;
  error: McpRtError;
}

/** A problem in the design document's loader shape: a path and a message. */
export interface MCPLoadError {
  /** The config file, `mcp:<server>`, the cache URL, or `.mcp.json` when discovery itself failed. */
  path: string;
  /** What went wrong and what to change. */
  error: string;
}

/** A discovery issue (a file or an entry in it) as a load problem. */
export function fileProblem(issue: ConfigIssue): MCPLoadProblem {
  return {
    kind: "file",
    path: issue.path,
    ...(issue.server === undefined ? {} : { server: issue.server }),
    error: new McpRtError("CONFIG_INVALID", issue.message, {
      ...(issue.server === undefined ? {} : { server: issue.server }),
    }),
  };
}

/** Discovery threw: the one problem of a load that found nothing. */
export function discoveryProblem(error: unknown): MCPLoadProblem {
  const wrapped = McpRtError.isInstance(error)
    ? error
    : new McpRtError("CONFIG_UNREADABLE", errorMessage(error), { cause: error });
  return { kind: "discovery", error: wrapped };
}

/**
 * The design document's `{ path, error }` view of load problems: file
 * problems keep the file's path (the entry named in the message), server
 * failures get `mcp:<server>`, a discovery failure `.mcp.json`.
 */
export function toLoadErrors(problems: readonly MCPLoadProblem[]): MCPLoadError[] {
  return problems.map(({ kind, path, server, error }) => {
    switch (kind) {
      case "server":
        return { path: `mcp:${server}`, error: error.message };
      case "discovery":
        return { path: ".mcp.json", error: error.message };
      default:
        // Discovery's messages usually name the entry already (`servers.<name>: …`).
        return {
          path: path ?? "",
          error:
            server === undefined || error.message.includes(server)
              ? error.message
              : `${server}: ${error.message}`,
        };
    }
  });
}
