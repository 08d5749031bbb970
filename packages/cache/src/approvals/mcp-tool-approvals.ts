import { createHash } from "node:crypto";
import { type Logger, type MCPToolDefinition, mcpRtPath } from "@mcp-rt/config";
import { errorMessage, settleWithin } from "@mcp-rt/config/util";
import { CacheKey, loadCacheKeyFile } from "../cache-key.js";
import { canonicalJson } from "../fingerprint.js";
import type { ToolCacheStore } from "../store-keyv.js";
import { createApprovalFolder } from "./approval-folder.js";
import { createApprovalKeyvStore } from "./approval-keyv.js";
import {
  type ApprovedDefinitions,
  parseApprovalRecord,
  parseApprovedDefinitions,
  type ToolApprovalChange,
  type ToolApprovalIdentity,
  type ToolApprovalRecord,
  withApproved,
  withDeclined,
} from "./approval-record.js";
import type { ApprovalStore } from "./approval-store.js";

/** Options of {@link MCPToolApprovals}. */
export interface MCPToolApprovalsOptions {
  /**
   * Sign every entry (an HMAC under the key, as the tool cache's entries
   * are) and refuse one that is not signed with it: for a store several
   * people share, so that nobody without the key can approve a change for
   * the others. @default false
   */
  signed?: boolean;
  /** The key of a signed store: a fleet's shared secret (16 bytes or more). @default the installation's cache key */
  key?: string | Uint8Array;
  /** Where the installation's key lives, for a signed store without `key`. @default `~/.mcp-rt/cache-key` */
  keyFile?: string;
  /** How long a read may take before the server is started unchecked (ms). @default 2000 */
  readTimeoutMs?: number;
  /** Gets one warning per failed write. @default silent */
  logger?: Logger;
  /** What the store is called in messages (a redacted URL). @default its folder, or "a keyv store" */
  where?: string;
}

/** Where {@link MCPToolApprovals} keeps its entries: any keyv store (a `Map`, Redis, …), or a folder of files. */
export type ToolApprovalsStore = ToolCacheStore | { folder: string };

/** What {@link MCPToolApprovals.read} found for one server. */
export type ToolApprovalRead =
  /** Its record (`undefined`: never approved, its tools are seen for the first time). */
  | { status: "found"; record: ToolApprovalRecord | undefined }
  /** A record was there but is refused: not signed with this store's key (planted, forged), or not a record. */
  | { status: "refused"; reason: string }
  /** The store could not be read (down, too slow, a damaged file). */
  | { status: "failed"; reason: string };

const DEFAULT_READ_TIMEOUT_MS = 2000;

/**
 * The tool definitions a user approved, per server (docs/architecture.md,
 * "Approved tool definitions"): a digest of each tool, what the server ran
 * and called itself, and the approved definitions for a diff. Kept in an
 * {@link ApprovalStore} of its own: `createToolApprovals()` makes the local
 * one, `~/.mcp-rt/tool-approvals/`. In a signed store, ids and records are
 * HMACs under a key (derived from the cache key), so a record planted or
 * edited by whoever can write to a shared store is refused.
 *
 * `read` never throws: a store that cannot be read is a `failed` read.
 */
export class MCPToolApprovals implements AsyncDisposable {
  readonly #store: ApprovalStore;
  readonly #signed: boolean;
  readonly #key: Promise<CacheKey> | undefined;
  readonly #readTimeoutMs: number;
  readonly #logger: Logger | undefined;
  /** The last write of each id still under way: a server's writes land in order. */
  readonly #writes = new Map<string, Promise<unknown>>();

  /**
   * @param store a keyv store (`<namespace>:<id>` and `<namespace>:<id>:definitions`,
   *   namespace `mcp-rt-approvals`), or `{ folder }`: `index.json` (every server's
   *   record, read once per start) and one `<id>.json` of approved definitions per
   *   server, files 0600 in a 0700 folder, written atomically.
   * @throws McpRtError `CONFIG_INVALID` for a `key` under 16 bytes.
   */
  constructor(store: ToolApprovalsStore, options: MCPToolApprovalsOptions = {}) {
    this.#store =
      "folder" in store && typeof store.folder === "string"
        ? createApprovalFolder(store.folder)
        : createApprovalKeyvStore(
            store as ToolCacheStore,
            options.where === undefined ? {} : { where: options.where },
          );
    this.#signed = options.signed ?? false;
    this.#readTimeoutMs = options.readTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
    this.#logger = options.logger;
    if (this.#signed) {
      // A key given is checked at once (too short throws); the installation's is read with the first entry.
      const key =
        options.key === undefined
          ? loadCacheKeyFile(options.keyFile ?? mcpRtPath("cache-key"))
          : Promise.resolve(new CacheKey(options.key));
      this.#key = key.then((cacheKey) => cacheKey.derive("tool approvals"));
      this.#key.catch(() => {});
    }
  }

  /** Where the approvals are kept, for messages. */
  get where(): string {
    return this.#store.where;
  }

  /** The record of the server `identity`, checked. Never throws. */
  async read(identity: ToolApprovalIdentity): Promise<ToolApprovalRead> {
    const settled = await settleWithin(async () => {
      const id = await this.#id(identity);
      return { id, stored: await this.#store.get(id) };
    }, this.#readTimeoutMs);
    if (settled.status === "timeout") {
      return { status: "failed", reason: `reading ${this.where} took over ${this.#readTimeoutMs} ms` };
    }
    if (settled.status === "error") {
      return { status: "failed", reason: `reading ${this.where} failed: ${errorMessage(settled.error)}` };
    }
    const { id, stored } = settled.value;
    if (stored === undefined || stored === null) return { status: "found", record: undefined };
    const value = await this.#opened(id, stored);
    if (value === undefined) return { status: "refused", reason: this.#refusal() };
    const record = parseApprovalRecord(value);
    if (!record) return { status: "refused", reason: `the entry in ${this.where} is not a tool approval` };
    return { status: "found", record };
  }

  /**
   * Records `change` for the server `identity`: merged into its record (the
   * digests of the tools given replace theirs, the others stay: a removed
   * tool keeps its approval), its approved definitions kept beside it.
   * Resolves with the record written; rejects when the store cannot be written.
   */
  approve(identity: ToolApprovalIdentity, change: ToolApprovalChange): Promise<ToolApprovalRecord> {
    return this.#update(identity, async (id, record) => {
      if (change.tools.length > 0) {
        const definitions = { ...(await this.#definitionsOf(id)) };
        for (const tool of change.tools) definitions[tool.name] = tool;
        await this.#store.setDefinitions(id, await this.#sealed(id, definitions));
      }
      return withApproved(record, change);
    });
  }

  /**
   * Records that the user keeps holding `tools` as they are now (the server
   * `identity` had them held): the same definitions are held again without
   * asking, another change of them asks. Resolves with the record written
   * (`undefined` when the server has none to add to). Rejects when the store
   * cannot be written.
   */
  decline(
    identity: ToolApprovalIdentity,
    tools: readonly MCPToolDefinition[],
  ): Promise<ToolApprovalRecord | undefined> {
    return this.#update(identity, async (_id, record) => (record ? withDeclined(record, tools) : undefined));
  }

  /** The approved definitions of the server `identity`, by tool name (`{}` when none can be read). */
  async definitions(identity: ToolApprovalIdentity): Promise<ApprovedDefinitions> {
    try {
      return await this.#definitionsOf(await this.#id(identity));
    } catch {
      return {};
    }
  }

  /** Waits for the writes under way and lets go of the store. */
  async close(): Promise<void> {
    await Promise.allSettled(this.#writes.values());
    await this.#store.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** Read, change, write, one write of a server at a time; `change` returning `undefined` writes nothing. */
  #update<R extends ToolApprovalRecord | undefined>(
    identity: ToolApprovalIdentity,
    change: (id: string, record: ToolApprovalRecord | undefined) => Promise<R>,
  ): Promise<R> {
    const run = async (): Promise<R> => {
      const id = await this.#id(identity);
      const read = await this.read(identity);
      // A refused or unreadable record is replaced: it was never the user's.
      const next = await change(id, read.status === "found" ? read.record : undefined);
      if (next) await this.#store.set(id, await this.#sealed(id, next));
      return next;
    };
    const key = canonicalJson(identity);
    const write = (this.#writes.get(key) ?? Promise.resolve()).then(run, run);
    const tracked = write.catch((error: unknown) => {
      this.#logger?.warn(
        `Tool approvals of MCP server "${identity.server}" could not be written to ${this.where}: ${errorMessage(error)}`,
      );
    });
    this.#writes.set(key, tracked);
    void tracked.then(() => {
      if (this.#writes.get(key) === tracked) this.#writes.delete(key);
    });
    return write;
  }

  async #definitionsOf(id: string): Promise<ApprovedDefinitions> {
    const stored = await this.#store.getDefinitions(id);
    if (stored === undefined || stored === null) return {};
    return parseApprovedDefinitions(await this.#opened(id, stored)) ?? {};
  }

  /** The id of a server's entries: a digest of its identity, an HMAC of it in a signed store. */
  async #id(identity: ToolApprovalIdentity): Promise<string> {
    const fingerprint = createHash("sha256")
      .update(canonicalJson(["mcp-rt tool approvals", identity.server, identity.source, identity.level]))
      .digest("hex");
    return this.#key ? (await this.#key).entryId(fingerprint) : fingerprint;
  }

  /** What is stored for `value`: itself, or in a signed store `{ value, mac }` over the id and the value. */
  async #sealed(id: string, value: unknown): Promise<unknown> {
    if (!this.#key) return value;
    return { value, mac: (await this.#key).sign({ id, value }) };
  }

  /** The value of what is stored, or `undefined` when its signature does not check out. */
  async #opened(id: string, stored: unknown): Promise<unknown> {
    if (!this.#key) return stored;
    const sealed = stored as { value?: unknown; mac?: unknown } | null;
    if (typeof sealed !== "object" || sealed === null || !("value" in sealed)) return undefined;
    return (await this.#key).verifies({ id, value: sealed.value }, sealed.mac) ? sealed.value : undefined;
  }

  #refusal(): string {
    return `the entry in ${this.where} is not signed with this installation's key (planted or edited by someone without it)`;
  }
}
