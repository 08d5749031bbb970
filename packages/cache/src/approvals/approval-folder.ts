import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { monotonicMs, withFileLock, writeJsonAtomic } from "@mcp-rt/config/util";
import type { ApprovalStore } from "./approval-store.js";

/**
 * How long one read of the index serves the reads after it: the servers of
 * one start read it once, and a later re-list reads it again (another agent
 * may have approved something meanwhile).
 */
export const INDEX_SNAPSHOT_MS = 1000;

/** The index file: every server's record, by id. */
interface IndexFile {
  version: 1;
  servers: Record<string, unknown>;
}

const ID = /^[A-Za-z0-9_-]{16,128}$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkedId(id: string): string {
  // Ids name files: never a path.
  if (!ID.test(id)) throw new Error(`tool approval id "${id}" is not a digest`);
  return id;
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  return JSON.parse(text);
}

/**
 * The local store: a folder (`~/.mcp-rt/tool-approvals/`, 0700) holding
 * `index.json` (every server's record: small, read once per start) and one
 * `<id>.json` per server with its approved definitions (read only for a
 * diff), every file 0600 and written atomically. Writes of the index take a
 * lock file, so agents approving at once both land.
 */
export function createApprovalFolder(dir: string): ApprovalStore {
  const index = join(dir, "index.json");
  let snapshot: { at: number; file: Promise<IndexFile> } | undefined;
  let writes: Promise<unknown> = Promise.resolve();

  const readIndex = async (): Promise<IndexFile> => {
    const json = await readJson(index);
    if (json === undefined) return { version: 1, servers: {} };
    if (!isPlainObject(json) || !isPlainObject(json.servers)) {
      throw new Error(`${index} is not an index of tool approvals`);
    }
    return { version: 1, servers: { ...json.servers } };
  };

  return {
    where: dir,
    async get(id) {
      const now = monotonicMs();
      if (!snapshot || now - snapshot.at > INDEX_SNAPSHOT_MS) {
        snapshot = { at: now, file: readIndex() };
        // A failed read is not kept: the next read tries again.
        const failed = snapshot;
        failed.file.catch(() => {
          if (snapshot === failed) snapshot = undefined;
        });
      }
      return (await snapshot.file).servers[checkedId(id)];
    },
    set(id, value) {
      checkedId(id);
      const write = writes.then(() =>
        withFileLock(`${index}.lock`, async () => {
          // A damaged index is replaced: the records it held could not be read anyway.
          const file = await readIndex().catch((): IndexFile => ({ version: 1, servers: {} }));
          file.servers[id] = value;
          await writeJsonAtomic(index, file, { mode: 0o600, dirMode: 0o700 });
          snapshot = { at: monotonicMs(), file: Promise.resolve(file) };
        }),
      );
      writes = write.catch(() => undefined);
      return write;
    },
    getDefinitions: (id) => readJson(join(dir, `${checkedId(id)}.json`)),
    setDefinitions: (id, value) =>
      writeJsonAtomic(join(dir, `${checkedId(id)}.json`), value, { mode: 0o600, dirMode: 0o700 }),
    close: async () => {
      await writes;
    },
  };
}
