import type { MCPToolCache } from "@mcp-rt/cache";
import type { MCPServerConnection } from "@mcp-rt/client";
import type { MCPServerConfig, MCPToolDefinition, McpRtError, SourceMeta } from "@mcp-rt/config";
import type { MCPConnectionStatus, MCPServerState } from "./manager-types.js";

/** One connect + list of one server, and what the startup gate needs to know of it. */
export class Attempt {
  /** The unresolved config this attempt uses. */
  readonly config: MCPServerConfig;
  readonly controller: AbortController = new AbortController();
  readonly startedAt: number = performance.now();
  /** The cached tool definitions, read while the connection is made (§3.5: never awaited before the gate). */
  readonly cached: Promise<MCPToolDefinition[] | null>;
  /** Resolves with the connection once connected and listed; rejects with an `McpRtError`. */
  readonly done: Promise<MCPServerConnection>;
  /** Set once `done` settled. */
  outcome?: { ok: true } | { ok: false; error: McpRtError };
  /** True once a `connectServers` call that waited on this attempt returned: a later failure or drop is logged, not reported. */
  returned = false;

  constructor(options: {
    name: string;
    config: MCPServerConfig;
    cache: MCPToolCache | null;
    cwd: string;
    run: (attempt: Attempt) => Promise<MCPServerConnection>;
  }) {
    this.config = options.config;
    // The cache never throws by contract; a miss is the only safe reading of anything else.
    this.cached = options.cache
      ? options.cache.get(options.name, options.config, options.cwd).catch(() => null)
      : Promise.resolve(null);
    this.done = options.run(this);
    this.done.then(
      () => {
        this.outcome = { ok: true };
      },
      (error: McpRtError) => {
        this.outcome = { ok: false, error };
      },
    );
  }
}

/** What the manager knows of one server beyond the §3.4 maps. */
export interface ServerRecord {
  /** The latest unresolved config. */
  config: MCPServerConfig;
  attempt?: Attempt;
  /** The exposed (filtered) definitions: live, or from the cache while `deferred`. */
  definitions: MCPToolDefinition[];
  deferred: boolean;
  /** The (filtered) tool names of the live connection. */
  liveToolNames?: ReadonlySet<string>;
  connectedMs?: number;
  lastError?: McpRtError;
  /** True when the last attempt failed. */
  failed: boolean;
  /** Why the last live connection went away. */
  disconnectReason?: string;
  /** Unsubscribes from the live connection's close/error events. */
  unsubscribe?: () => void;
}

/** A server's state for a UI, from its record, source and §3.4 status. */
export function toServerState(
  name: string,
  status: MCPConnectionStatus,
  record: ServerRecord | undefined,
  source: SourceMeta | undefined,
): MCPServerState {
  const state: MCPServerState = {
    name,
    status: status === "disconnected" && record?.failed ? "failed" : status,
    toolCount: record?.definitions.length ?? 0,
    deferred: record?.deferred ?? false,
  };
  if (source) state.source = source;
  if (record?.connectedMs !== undefined) state.connectedMs = record.connectedMs;
  if (record?.lastError) {
    const { code, message, stderrTail } = record.lastError;
    state.lastError = { code, message, ...(stderrTail ? { stderrTail } : {}) };
  }
  return state;
}
