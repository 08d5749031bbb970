import type { MCPServerConnection } from "@mcp-rt/client";
import { type MCPServerConfig, McpRtError } from "@mcp-rt/config";
import type { MCPConnectionStatus, MCPServerState } from "../manager-types.js";
import { ServerRecord } from "../server/server-record.js";

/** Every server a manager knows, by config name: one {@link ServerRecord} each. */
export class ServerTable {
  readonly #records = new Map<string, ServerRecord>();

  /** The record of `name`, if the manager knows it. */
  get(name: string): ServerRecord | undefined {
    return this.#records.get(name);
  }

  /** The record of `name` with `config` as its latest config; made when the server is new. */
  ensure(name: string, config: MCPServerConfig): ServerRecord {
    let record = this.#records.get(name);
    if (record) {
      record.configure(config);
    } else {
      record = new ServerRecord(name, config);
      this.#records.set(name, record);
    }
    return record;
  }

  /** Removes `name`; returns its record (to be stopped by the caller). */
  forget(name: string): ServerRecord | undefined {
    const record = this.#records.get(name);
    this.#records.delete(name);
    return record;
  }

  /** True while `record` is the one the table holds for its name (it was not removed or replaced). */
  holds(record: ServerRecord): boolean {
    return this.#records.get(record.name) === record;
  }

  /** Every record, in the order the servers became known. */
  records(): ServerRecord[] {
    return [...this.#records.values()];
  }

  /** Every config name. */
  names(): string[] {
    return [...this.#records.keys()];
  }

  /** Every server as a UI shows it. */
  states(): MCPServerState[] {
    return this.records().map((record) => record.state());
  }

  /** The design document's status of `name`; `disconnected` for a server the table does not know. */
  status(name: string): MCPConnectionStatus {
    return this.#records.get(name)?.status ?? "disconnected";
  }

  /** The live connections. */
  *connections(): Iterable<MCPServerConnection> {
    for (const record of this.#records.values()) if (record.connection) yield record.connection;
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
