import { redactUrl } from "@mcp-rt/config";
import type { ToolCacheStore } from "../store-keyv.js";
import { toKeyv } from "../store-keyv.js";
import type { ApprovalStore } from "./approval-store.js";

/** Options of {@link createApprovalKeyvStore}. */
export interface ApprovalKeyvOptions {
  /** Key prefix, so approvals share a store with tool caches without meeting them. @default "mcp-rt-approvals" */
  namespace?: string;
  /** Where it is, for messages. @default "a keyv store" */
  where?: string;
}

/**
 * Approvals in any keyv store (a `Map`, Redis, …): `<namespace>:<id>` holds
 * a server's record, `<namespace>:<id>:definitions` its approved
 * definitions. Entries never expire. A store several people share is used
 * with signed entries (`MCPToolApprovals`' `signed`).
 */
export function createApprovalKeyvStore(
  store: ToolCacheStore,
  options: ApprovalKeyvOptions = {},
): ApprovalStore {
  const { keyv, owned } = toKeyv(store);
  const namespace = options.namespace ?? "mcp-rt-approvals";
  const recordKey = (id: string): string => `${namespace}:${id}`;
  return {
    where: options.where === undefined ? "a keyv store" : redactUrl(options.where),
    get: (id) => keyv.get(recordKey(id)),
    set: async (id, value) => {
      await keyv.set(recordKey(id), value);
    },
    getDefinitions: (id) => keyv.get(`${recordKey(id)}:definitions`),
    setDefinitions: async (id, value) => {
      await keyv.set(`${recordKey(id)}:definitions`, value);
    },
    close: async () => {
      if (owned) await keyv.disconnect();
    },
  };
}
