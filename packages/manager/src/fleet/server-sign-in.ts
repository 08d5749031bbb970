import type { SignInStatus } from "@mcp-rt/client";
import { type AuthStorage, isStdioConfig, McpRtError } from "@mcp-rt/config";
import { loadClient } from "../client-module.js";
import type { ServerLifecycle } from "../server/server-lifecycle.js";
import type { ServerRecord } from "../server/server-record.js";
import type { ServerTable } from "./server-table.js";

/** What {@link ServerSignIn} works on: the manager's parts it shares. */
export interface ServerSignInParts {
  table: ServerTable;
  lifecycle: ServerLifecycle;
  /** Where API keys and sign-ins live, when the manager has a store. */
  authStorage: AuthStorage | undefined;
}

/**
 * The manager's credentials side (docs/architecture.md, "Credentials and
 * sign-in"): OAuth sign-in and sign-out of remote servers, API keys, and what
 * the store holds about a sign-in. Each finds the server's record and says
 * why it cannot when it cannot; the {@link ServerLifecycle} does the connecting.
 */
export class ServerSignIn {
  readonly #parts: ServerSignInParts;

  constructor(parts: ServerSignInParts) {
    this.#parts = parts;
  }

  /** `MCPManager.login`: signs `name` in through the browser and connects it (nothing to do when it is connected). */
  async login(name: string, signal?: AbortSignal): Promise<void> {
    const record = this.#signInRecord(name);
    if (record.phase === "connected") return;
    await this.#parts.lifecycle.signIn(record, signal);
  }

  /** `MCPManager.logout`: signs `name` out; whether a sign-in was stored. */
  async logout(name: string): Promise<boolean> {
    const record = this.#signInRecord(name);
    return this.#parts.lifecycle.signOut(record, this.#parts.authStorage!);
  }

  /** `MCPManager.setApiKey`: stores the key of `name` under its `credentialId` and starts it again. */
  async setApiKey(name: string, key: string): Promise<void> {
    const { table, lifecycle, authStorage } = this.#parts;
    const record = table.get(name);
    if (!record) throw table.unknown(name);
    const { auth } = record.config;
    if (auth?.type !== "apikey") {
      throw new McpRtError(
        "CONFIG_INVALID",
        `MCP server "${name}" takes no API key: its config has no \`auth: { type: "apikey", credentialId: "…" }\`; add one, or sign in with /mcp login if it uses OAuth`,
        { server: name },
      );
    }
    if (key.trim() === "") {
      throw new McpRtError(
        "CONFIG_INVALID",
        `The API key for MCP server "${name}" is empty; nothing was stored`,
        {
          server: name,
        },
      );
    }
    if (!authStorage) {
      throw new McpRtError(
        "AUTH_REQUIRED",
        `MCP server "${name}": this manager has no authStorage to keep the key in; pass one (createAuthStorage())`,
        { server: name },
      );
    }
    await authStorage.set(auth.credentialId, key);
    lifecycle.restart(record);
  }

  /** `MCPManager.signInStatus`: what the store holds about the sign-in of `name`, never a token. */
  async status(name: string): Promise<SignInStatus | undefined> {
    const record = this.#parts.table.get(name);
    const storage = this.#parts.authStorage;
    if (!record || !storage) return undefined;
    return (await loadClient()).readSignInStatus(record.config, storage);
  }

  /** The record of a remote server that can sign in, or the reason it cannot. */
  #signInRecord(name: string): ServerRecord {
    const record = this.#parts.table.get(name);
    if (!record) throw this.#parts.table.unknown(name);
    if (isStdioConfig(record.config)) {
      throw new McpRtError(
        "CONFIG_INVALID",
        `MCP server "${name}" is a local (stdio) server; only remote servers sign in. Give it a key with \`auth: { type: "apikey", credentialId }\` instead`,
        { server: name },
      );
    }
    if (!this.#parts.authStorage) {
      throw new McpRtError(
        "AUTH_REQUIRED",
        `MCP server "${name}" cannot sign in: this manager has no authStorage to keep the sign-in in; pass one (createAuthStorage())`,
        { server: name },
      );
    }
    return record;
  }
}
