import type { SignInStatus } from "@mcp-rt/client";
import { type AuthStorage, isStdioConfig, McpRtError } from "@mcp-rt/config";
import { loadClient } from "../client-module.js";
import type { ServerSupervisor } from "../server/server-supervisor.js";
import type { ServerTable } from "./server-table.js";

/** What {@link ServerSignIn} works on: the fleet's table and the auth store. */
export interface ServerSignInOptions {
  table: Pick<ServerTable, "get" | "unknown">;
  /** Where API keys and sign-ins live, when the manager has a store. */
  authStorage: AuthStorage | undefined;
}

/**
 * The manager's credentials side (docs/architecture.md, "Credentials and
 * sign-in"): OAuth sign-in and sign-out of remote servers, API keys, and what
 * the store holds about a sign-in. Each finds the server's record and says
 * why it cannot when it cannot; its {@link ServerSupervisor} does the connecting.
 */
export class ServerSignIn {
  readonly #options: ServerSignInOptions;

  constructor(options: ServerSignInOptions) {
    this.#options = options;
  }

  /** `MCPManager.login`: signs `name` in through the browser and connects it (nothing to do when it is connected). */
  async login(name: string, signal?: AbortSignal): Promise<void> {
    const supervisor = this.#signInServer(name);
    if (supervisor.record.phase === "connected") return;
    await supervisor.signIn(signal);
  }

  /** `MCPManager.logout`: signs `name` out; whether a sign-in was stored. */
  async logout(name: string): Promise<boolean> {
    return this.#signInServer(name).signOut(this.#options.authStorage!);
  }

  /** `MCPManager.setApiKey`: stores the key of `name` under its `credentialId` and starts it again. */
  async setApiKey(name: string, key: string): Promise<void> {
    const { table, authStorage } = this.#options;
    const supervisor = table.get(name);
    if (!supervisor) throw table.unknown(name);
    const { auth } = supervisor.record.config;
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
    supervisor.restart();
  }

  /** `MCPManager.signInStatus`: what the store holds about the sign-in of `name`, never a token. */
  async status(name: string): Promise<SignInStatus | undefined> {
    const record = this.#options.table.get(name)?.record;
    const storage = this.#options.authStorage;
    if (!record || !storage) return undefined;
    return (await loadClient()).readSignInStatus(record.config, storage);
  }

  /** The supervisor of a remote server that can sign in, or the reason it cannot. */
  #signInServer(name: string): ServerSupervisor {
    const supervisor = this.#options.table.get(name);
    if (!supervisor) throw this.#options.table.unknown(name);
    if (isStdioConfig(supervisor.record.config)) {
      throw new McpRtError(
        "CONFIG_INVALID",
        `MCP server "${name}" is a local (stdio) server; only remote servers sign in. Give it a key with \`auth: { type: "apikey", credentialId }\` instead`,
        { server: name },
      );
    }
    if (!this.#options.authStorage) {
      throw new McpRtError(
        "AUTH_REQUIRED",
        `MCP server "${name}" cannot sign in: this manager has no authStorage to keep the sign-in in; pass one (createAuthStorage())`,
        { server: name },
      );
    }
    return supervisor;
  }
}
