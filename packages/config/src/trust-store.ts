import { readFile, realpath } from "node:fs/promises";
import { resolve } from "node:path";
import { mcpRtPath } from "./mcp-rt-path.js";
import type { ProjectTrust } from "./types.js";
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
