import { homedir } from "node:os";
import { join } from "node:path";
import { McpRtError, mcpRtPath, redactUrl } from "@mcp-rt/config";
import { filePath } from "../create-cache-from-url.js";
import type { RedisStoreOptions } from "../redis-store-options.js";
import { MCPToolApprovals, type MCPToolApprovalsOptions } from "./mcp-tool-approvals.js";

/** Options of {@link createToolApprovals}: the approvals' own, plus the Redis store's for `redis://` URLs. */
export interface ToolApprovalsFromUrlOptions extends MCPToolApprovalsOptions {
  /** Used for `redis://` and `rediss://` URLs. */
  redis?: RedisStoreOptions;
  /** The home folder of `file:` (`<homeDir>/.mcp-rt/tool-approvals`). @default os.homedir() */
  homeDir?: string;
}

const USAGE =
  'use "file:" (~/.mcp-rt/tool-approvals), "file:/path/to/folder", "memory:" or "redis://host:port"';

/**
 * The store of approved tool definitions a URL names, as an agent's flag
 * takes it: `file:` (the default: `~/.mcp-rt/tool-approvals/`, beside the
 * trust store, files 0600), `file:/path` (a folder), `memory:` (this process
 * only) or `redis://host:port` / `rediss://` (needs `@keyv/redis`). A Redis
 * store is shared by whoever reaches it, so its entries are signed unless
 * `signed: false` says otherwise (with the installation's key, or a fleet's
 * `key`); a folder is signed when `signed` says so. Never connects.
 *
 * @throws McpRtError `CONFIG_INVALID` for any other URL or a `key` under 16
 *   bytes; `CACHE_ERROR` when `@keyv/redis` is not installed for a Redis URL.
 * @example
 * ```ts
 * const approvals = await createToolApprovals(); // ~/.mcp-rt/tool-approvals
 * const manager = new MCPManager(cwd, { approvals, toolChanges: "ask" });
 * ```
 */
export async function createToolApprovals(
  url = "file:",
  options: ToolApprovalsFromUrlOptions = {},
): Promise<MCPToolApprovals> {
  const { redis, homeDir, ...approvalOptions } = options;
  if (typeof url !== "string") {
    throw new McpRtError(
      "CONFIG_INVALID",
      `Tool approvals URL must be a string, got ${typeof url}; ${USAGE}.`,
    );
  }
  const trimmed = url.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  switch (scheme) {
    case "memory":
      if (trimmed.slice("memory:".length).replace(/^\/\//, "") !== "") break;
      return new MCPToolApprovals(new Map(), { where: "memory:", ...approvalOptions });
    case "file": {
      const given = filePath(trimmed, USAGE);
      const folder = given?.startsWith("~/") ? join(homedir(), given.slice(2)) : given;
      return new MCPToolApprovals(
        { folder: folder ?? mcpRtPath("tool-approvals", homeDir) },
        approvalOptions,
      );
    }
    case "redis":
    case "rediss": {
      const { createRedisStore } = await import("../redis-store.js").catch((error: unknown) => {
        throw new McpRtError(
          "CACHE_ERROR",
          "Tool approvals in Redis need the optional peer dependency @keyv/redis; install it (npm install @keyv/redis) or use file:.",
          { cause: error },
        );
      });
      return new MCPToolApprovals(createRedisStore(trimmed, redis), {
        signed: true,
        where: redactUrl(trimmed),
        ...approvalOptions,
      });
    }
  }
  throw new McpRtError("CONFIG_INVALID", `Unsupported tool approvals URL "${redactUrl(trimmed)}"; ${USAGE}.`);
}
