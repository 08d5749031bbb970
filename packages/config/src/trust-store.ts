import { createHash } from "node:crypto";
import { readFile, realpath } from "node:fs/promises";
import { resolve } from "node:path";
import { mcpRtPath } from "./mcp-rt-path.js";
import type { SourceMeta } from "./server-config.js";
import type { ProjectSetting, ProjectTrust } from "./types.js";
import { lazy } from "./util/lazy.js";
import { writeJsonAtomic } from "./util/write-json-atomic.js";
import { z } from "./util/zod.js";

/**
 * The key a project's approval is stored under: the folder's real path, so a
 * symlinked checkout and its target share one approval. A folder that does not
 * exist (yet) is keyed by its absolute path.
 */
export async function resolveProjectDir(projectDir: string): Promise<string> {
  const absolute = resolve(projectDir);
  try {
    return await realpath(absolute);
  } catch {
    return absolute;
  }
}

/**
 * JSON with object keys sorted at every depth, so two configs that differ only
 * in key order (or in `undefined` fields) serialize the same.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortKeys(item)));
  if (value === null || typeof value !== "object") return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) sorted[key] = sortKeys(item);
  }
  return sorted;
}

/** The parts of a discovered server entry the trust hash reads. */
export interface TrustHashEntry {
  name: string;
  /** The entry as written in its file (before `${…}` expansion). */
  config: unknown;
  source: Pick<SourceMeta, "provider" | "level">;
  /** A dotenv file the entry reads (VS Code, Cursor `envFile`): its path is part of what is approved. */
  envFile?: string;
}

/** An env file inside the project that an approval covers, by the digest of its bytes. */
export interface TrustHashEnvFile {
  server: string;
  provider: string;
  /** The file, absolute. */
  path: string;
  /** SHA-256 (hex) of its bytes, or `missing`. */
  digest: string;
}

/** What else a project's approval covers besides its server entries. */
export interface TrustHashExtras {
  /** The project files' settings that change which servers run (`disabledServers`, `mcp.excluded`…). */
  settings?: readonly ProjectSetting[];
  /** The env files inside the project that entries read, project-level or not. */
  envFiles?: readonly TrustHashEnvFile[];
}

/**
 * The hash a project's approval is keyed by (project trust): SHA-256 (hex) of the
 * canonical, key-sorted JSON of the project-level entries among `servers`
 * (provider, name and config as written in the project's files, before `${…}`
 * expansion), plus the project files' settings and the digests of the env
 * files inside the project that entries read (`extras`). So any change to a
 * project file's servers, settings or env files asks again, while a
 * rotated token in the user's environment, the user's own files, and session
 * options such as a `reserve` rule do not. `loadAllMCPConfigs` and the
 * `mcp-rt-config trust` command both use it.
 *
 * @example
 * ```ts
 * const hash = hashProjectServers(discovered);
 * await trust.approve(projectDir, hash);
 * ```
 */
export function hashProjectServers(servers: readonly TrustHashEntry[], extras: TrustHashExtras = {}): string {
  const entries = servers
    .filter((server) => server.source.level === "project")
    .map((server) =>
      server.envFile === undefined
        ? ([server.source.provider, server.name, server.config] as const)
        : ([server.source.provider, server.name, server.config, server.envFile] as const),
    )
    .sort(([p1, n1], [p2, n2]) => (p1 === p2 ? compare(n1, n2) : compare(p1, p2)));
  const settings = [...(extras.settings ?? [])]
    .map((setting) => [setting.path, setting.key, setting.value] as const)
    .sort(([p1, k1], [p2, k2]) => (p1 === p2 ? compare(k1, k2) : compare(p1, p2)));
  const envFiles = [...(extras.envFiles ?? [])]
    .map((file) => [file.provider, file.server, file.path, file.digest] as const)
    .sort((a, b) => compare(a.join("\0"), b.join("\0")));
  // Without extras the hash is the entries' alone, so approvals made before extras counted still hold.
  const hashed = settings.length === 0 && envFiles.length === 0 ? entries : { entries, settings, envFiles };
  return createHash("sha256").update(canonicalJson(hashed)).digest("hex");
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const approvalSchema = lazy(() =>
  z.object({ hash: z.string().check(z.minLength(1)), approvedAt: z.string() }),
);
type Approval = z.infer<ReturnType<typeof approvalSchema>>;
const trustFileSchema = lazy(() => z.object({ projects: z.record(z.string(), z.unknown()) }));

interface TrustFile {
  version: 1;
  projects: Record<string, Approval>;
}

/**
 * A file-backed {@link ProjectTrust} (docs/architecture.md, "Project trust"): one approval per project folder, the
 * hash of that project's project-level servers (see `hashProjectServers`).
 * The file is written atomically (temp file + rename) with mode 0600, in a
 * folder created with mode 0700. A missing or corrupt file means "nothing
 * approved" and is rewritten on the next `approve`; it never throws on read.
 *
 * @param path the trust file. @default `~/.mcp-rt/trust.json`
 * @example
 * ```ts
 * const trust = createTrustStore();
 * const { needsApproval } = await loadAllMCPConfigs(cwd, { trust });
 * ```
 */
export function createTrustStore(path?: string): ProjectTrust {
  return new FileTrustStore(path ?? mcpRtPath("trust.json"));
}

class FileTrustStore implements ProjectTrust {
  readonly #path: string;
  // Writes in this process run one after another, so two approvals made at
  // once both land instead of one read-modify-write overwriting the other.
  #queue: Promise<unknown> = Promise.resolve();

  constructor(path: string) {
    this.#path = resolve(path);
  }

  async isApproved(projectDir: string, hash: string): Promise<boolean> {
    const key = await resolveProjectDir(projectDir);
    const file = await this.#read();
    return file.projects[key]?.hash === hash;
  }

  approve(projectDir: string, hash: string): Promise<void> {
    return this.#update(async (file) => {
      file.projects[await resolveProjectDir(projectDir)] = { hash, approvedAt: new Date().toISOString() };
      return true;
    });
  }

  revoke(projectDir: string): Promise<void> {
    return this.#update(async (file) => {
      const key = await resolveProjectDir(projectDir);
      if (!(key in file.projects)) return false;
      delete file.projects[key];
      return true;
    });
  }

  #update(change: (file: TrustFile) => Promise<boolean>): Promise<void> {
    const next = this.#queue.then(async () => {
      const file = await this.#read();
      if (await change(file)) await this.#write(file);
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #read(): Promise<TrustFile> {
    const empty: TrustFile = { version: 1, projects: {} };
    let text: string;
    try {
      text = await readFile(this.#path, "utf8");
    } catch {
      return empty;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return empty;
    }
    const parsed = trustFileSchema().safeParse(json);
    if (!parsed.success) return empty;
    // One damaged entry costs only that project's approval.
    for (const [dir, value] of Object.entries(parsed.data.projects)) {
      const approval = approvalSchema().safeParse(value);
      if (approval.success) empty.projects[dir] = approval.data;
    }
    return empty;
  }

  #write(file: TrustFile): Promise<void> {
    return writeJsonAtomic(this.#path, file, { mode: 0o600, dirMode: 0o700 });
  }
}
