import type { MCPServerConnection } from "@mcp-rt/client";
import { McpRtError } from "@mcp-rt/config";
import type { MCPConnectionStatus, MCPServerState } from "../manager-types.js";
import type { ServerView } from "../server/server-record.js";
import { serverState } from "../server/server-state.js";
import type { ServerSupervisor } from "../server/server-supervisor.js";

/** Every server a fleet knows, by config name: one {@link ServerSupervisor} each. */
export class ServerTable {
  readonly #supervisors = new Map<string, ServerSupervisor>();

  /** The supervisor of `name`, if the fleet knows it. */
  get(name: string): ServerSupervisor | undefined {
    return this.#supervisors.get(name);
  }

  /** Adds the supervisor of a server the table does not hold yet; returns it. */
  add(supervisor: ServerSupervisor): ServerSupervisor {
    this.#supervisors.set(supervisor.name, supervisor);
    return supervisor;
  }

  /** Removes `name`; returns its supervisor (to be retired by the caller). */
  forget(name: string): ServerSupervisor | undefined {
    const supervisor = this.#supervisors.get(name);
    this.#supervisors.delete(name);
    return supervisor;
  }

  /** Every supervisor, in the order the servers became known. */
  supervisors(): ServerSupervisor[] {
    return [...this.#supervisors.values()];
  }

  /** Every server's state, read-only, in the same order. */
  views(): ServerView[] {
    return this.supervisors().map((supervisor) => supervisor.record);
  }

  /** Every config name. */
  names(): string[] {
    return [...this.#supervisors.keys()];
  }

  /** Every server as a UI shows it. */
  states(): MCPServerState[] {
    return this.views().map(serverState);
  }

  /** The design document's status of `name`; `disconnected` for a server the table does not know. */
  status(name: string): MCPConnectionStatus {
    return this.#supervisors.get(name)?.record.status ?? "disconnected";
  }

  /** The live connections. */
  *connections(): Iterable<MCPServerConnection> {
    for (const { record } of this.#supervisors.values()) if (record.connection) yield record.connection;
  }

  /** `UNKNOWN_SERVER` for a name the table does not know, listing the names it does. */
  unknown(name: string): McpRtError {
    const known = this.names();
    return new McpRtError(
      "UNKNOWN_SERVER",
      `No MCP server named "${name}" is configured${known.length > 0 ? ` (known: ${known.join(", ")})` : ""}`,
      { server: name },
    );
  }
}
