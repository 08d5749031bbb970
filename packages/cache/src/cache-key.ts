import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { chmod, link, mkdir, open, readFile, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { McpRtError } from "@mcp-rt/config";

/** The fewest bytes a cache key may have. */
export const MIN_CACHE_KEY_BYTES = 16;

/**
 * The secret of a tool cache. Entries are stored under an HMAC of their
 * fingerprint and carry an HMAC of their content, both under this key: whoever
 * can write to the store but does not hold the key can neither compute where
 * an entry goes nor write one that is accepted.
 */
export class CacheKey {
  readonly #secret: Buffer;

  /** @throws McpRtError `CONFIG_INVALID` for a key shorter than {@link MIN_CACHE_KEY_BYTES}. */
  constructor(secret: string | Uint8Array) {
    const bytes = typeof secret === "string" ? Buffer.from(secret, "utf8") : Buffer.from(secret);
    if (bytes.length < MIN_CACHE_KEY_BYTES) {
      throw new McpRtError(
        "CONFIG_INVALID",
        `MCPToolCache: key must have at least ${MIN_CACHE_KEY_BYTES} bytes, got ${bytes.length}; use a random one, e.g. \`openssl rand -hex 32\``,
      );
    }
    this.#secret = bytes;
  }

  /**
   * A key of its own for another kind of entry (`purpose`, e.g. tool
   * approvals), derived from this one: entries of one kind can neither be
   * read as nor stand in for entries of another, and the secret never leaves.
   */
  derive(purpose: string): CacheKey {
    return new CacheKey(createHmac("sha256", this.#secret).update(`mcp-rt key for ${purpose}`).digest());
  }

  /** What an entry is stored under (the last part of its store key): an HMAC of its fingerprint. */
  entryId(fingerprint: string): string {
    return this.#mac(`mcp-rt cache entry id\0${fingerprint}`);
  }

  /**
   * The check an entry carries: an HMAC of the JSON text of its fields (all
   * but `mac`), in their order. JSON keeps that order through a store and
   * back, and plain `JSON.stringify` costs a third of a key-sorted copy on
   * a large tool list; a store that reordered keys would fail the contract
   * suite's first case.
   */
  sign(fields: object): string {
    return this.#mac(`mcp-rt cache entry\0${JSON.stringify(fields)}`);
  }

  /** True when `mac` is the check of `fields` under this key. */
  verifies(fields: object, mac: unknown): boolean {
    if (typeof mac !== "string") return false;
    const expected = Buffer.from(this.sign(fields), "hex");
    const given = Buffer.from(mac, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #mac(text: string): string {
    return createHmac("sha256", this.#secret).update(text, "utf8").digest("hex");
  }
}

let processKey: CacheKey | undefined;

/**
 * A random key made once per process: for stores that live no longer than the
 * process (a `Map`), and when the key file cannot be used.
 */
export function processCacheKey(): CacheKey {
  processKey ??= new CacheKey(randomBytes(32));
  return processKey;
}

/**
 * Reads the installation's cache key from `path`, creating it on first use:
 * 32 random bytes in hex, the file 0600 in a folder created 0700. Creation is
 * atomic and the first writer wins (a temp file hard-linked into place), so
 * agents starting together all end up with the same key. A file that holds
 * anything else of at least {@link MIN_CACHE_KEY_BYTES} bytes is used as it
 * is (a fleet may put its shared key there).
 *
 * @throws when the file cannot be read or created, or is too short.
 */
export async function loadCacheKeyFile(path: string): Promise<CacheKey> {
  const existing = await readKeyFile(path);
  if (existing !== undefined) return new CacheKey(existing);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, "wx", 0o600);
  try {
    await handle.writeFile(`${randomBytes(32).toString("hex")}\n`, "utf8");
    await handle.sync();
    await handle.close();
    // The mode given to `open` is masked by the umask.
    await chmod(temp, 0o600);
    // Unlike a rename, a link never replaces a key another process made meanwhile.
    await link(temp, path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
  } finally {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
  }
  const made = await readKeyFile(path);
  if (made === undefined) throw new Error(`${path} vanished right after it was made`);
  return new CacheKey(made);
}

async function readKeyFile(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, "utf8")).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
