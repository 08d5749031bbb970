import { Keyv, type KeyvStoreAdapter } from "keyv";

/** Anything `MCPToolCache` can keep entries in. */
export type ToolCacheStore = Keyv | KeyvStoreAdapter | Map<string, unknown>;

// What the deserializer returns for stored text that is not an entry written by
// Keyv, so that a read can tell "corrupt" apart from "missing" or "store down".
const unreadable: { readonly unreadable: true } = Object.freeze({ unreadable: true as const });

/** True when a read returned stored text that is not JSON in Keyv's `{ value, expires }` layout. */
export function isUnreadable(value: unknown): boolean {
  return value === unreadable;
}

/** True for a `Keyv` instance, even one from another copy of keyv. */
export function isKeyv(store: unknown): store is Keyv {
  if (store instanceof Keyv) return true;
  const candidate = store as { hooks?: unknown; getRaw?: unknown; getMany?: unknown } | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.hooks === "object" &&
    typeof candidate.getRaw === "function" &&
    typeof candidate.getMany === "function"
  );
}

function serialize(data: unknown): string {
  return JSON.stringify(data);
}

function deserialize(text: string): { value?: unknown; expires?: number } {
  try {
    const data: unknown = JSON.parse(text);
    if (typeof data === "object" && data !== null && !Array.isArray(data) && "value" in data) {
      return data as { value?: unknown; expires?: number };
    }
  } catch {
    // Falls through: unparsable text is reported as unreadable, not thrown.
  }
  return { value: unreadable };
}

/**
 * Wraps a store adapter or `Map` in the `Keyv` the cache talks to: plain JSON
 * (readable with `redis-cli` or `cat`), errors thrown rather than swallowed,
 * no key prefix beyond the cache's own namespace. A given `Keyv` is used as is.
 */
export function toKeyv(store: ToolCacheStore): { keyv: Keyv; owned: boolean } {
  if (isKeyv(store)) return { keyv: store, owned: false };
  const keyv = new Keyv({
    store,
    useKeyPrefix: false,
    throwOnErrors: true,
    serialize: serialize as never,
    deserialize: deserialize as never,
  });
  // No namespace (Keyv's default is "keyv"); its options type takes only a string, its setter `undefined` too.
  keyv.namespace = undefined;
  return { keyv, owned: true };
}
