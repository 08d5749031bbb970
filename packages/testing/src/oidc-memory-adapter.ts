import type { Adapter, AdapterFactory, AdapterPayload } from "oidc-provider";

interface Stored {
  payload: AdapterPayload;
  expiresAt: number | undefined;
}

// Kinds of stored artifacts whose id is the secret a client holds (opaque tokens, codes).
const SECRET_KINDS = new Set(["AccessToken", "RefreshToken", "AuthorizationCode"]);

/** An oidc-provider storage the fixture can inspect and tamper with. */
export interface OidcMemoryStore {
  /** The adapter factory to give oidc-provider (`adapter`). */
  factory: AdapterFactory;
  /** Removes every artifact of one kind (`AccessToken`, `RefreshToken`…); returns how many. */
  removeAll(kind: string): number;
  /** Every secret value the provider stored: opaque tokens, codes and client secrets. */
  secrets(): string[];
}

/**
 * oidc-provider's storage in this process: a map per artifact kind, with
 * expiry, one-time consumption and revocation by grant, as its adapter
 * contract asks. Unlike oidc-provider's development adapter it lets a test
 * revoke all access or refresh tokens at once, and list what was issued.
 */
export function createOidcMemoryStore(): OidcMemoryStore {
  const kinds = new Map<string, Map<string, Stored>>();
  const secrets = new Set<string>();
  const table = (kind: string): Map<string, Stored> => {
    const map = kinds.get(kind) ?? new Map<string, Stored>();
    kinds.set(kind, map);
    return map;
  };
  const live = (entry: Stored | undefined): AdapterPayload | undefined =>
    entry && (entry.expiresAt === undefined || entry.expiresAt > Date.now()) ? entry.payload : undefined;

  const factory: AdapterFactory = (kind: string): Adapter => {
    const map = table(kind);
    const findBy = (field: "uid" | "userCode", value: string): AdapterPayload | undefined => {
      for (const entry of map.values()) if (entry.payload[field] === value) return live(entry);
      return undefined;
    };
    return {
      async upsert(id, payload, expiresIn) {
        map.set(id, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined });
        if (SECRET_KINDS.has(kind)) secrets.add(id);
        if (kind === "Client" && typeof payload.client_secret === "string")
          secrets.add(payload.client_secret);
      },
      async find(id) {
        return live(map.get(id));
      },
      async findByUid(uid) {
        return findBy("uid", uid);
      },
      async findByUserCode(userCode) {
        return findBy("userCode", userCode);
      },
      async consume(id) {
        const entry = map.get(id);
        if (entry) entry.payload = { ...entry.payload, consumed: Math.floor(Date.now() / 1000) };
      },
      async destroy(id) {
        map.delete(id);
      },
      async revokeByGrantId(grantId) {
        for (const store of kinds.values()) {
          for (const [id, entry] of store) if (entry.payload.grantId === grantId) store.delete(id);
        }
      },
    };
  };

  return {
    factory,
    removeAll(kind) {
      const map = table(kind);
      const count = map.size;
      map.clear();
      return count;
    },
    secrets: () => [...secrets],
  };
}
