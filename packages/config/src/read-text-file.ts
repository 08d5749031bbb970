import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { errorMessage } from "./util/error-message.js";

/** Larger files are not read: a config file this big is a mistake, and reading it would stall startup. */
export const MAX_CONFIG_FILE_BYTES: number = 256 * 1024 * 1024;

/** What reading a text file gave: its text, nothing (it does not exist), or why it cannot be read. */
export type ReadTextFileResult =
  | { status: "ok"; text: string }
  | { status: "missing" }
  /** `problem` completes "<path> …", e.g. "is a folder where a config file is expected; …". */
  | { status: "error"; problem: string };

const FOLDER = "is a folder where a config file is expected; remove or rename the folder";

/**
 * Reads a config or dotenv file as UTF-8 without ever waiting on something
 * that is not a file: a folder, a named pipe or a device in its place, a file
 * larger than {@link MAX_CONFIG_FILE_BYTES}, or one that cannot be read is an
 * `error`; a path that does not exist is `missing`. Never throws.
 */
export async function readTextFile(path: string): Promise<ReadTextFileResult> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: opening a named pipe must not wait for a writer.
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { status: "missing" };
    return { status: "error", problem: code === "EISDIR" ? FOLDER : unreadable(error) };
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) return { status: "error", problem: FOLDER };
    if (!info.isFile()) {
      return {
        status: "error",
        problem: "is not a regular file (a pipe, socket or device); replace it with a config file",
      };
    }
    if (info.size > MAX_CONFIG_FILE_BYTES) {
      return {
        status: "error",
        problem: `is ${Math.ceil(info.size / 2 ** 20)} MiB, more than the ${MAX_CONFIG_FILE_BYTES / 2 ** 20} MiB a config file may have; it was not read`,
      };
    }
    return { status: "ok", text: await handle.readFile("utf8") };
  } catch (error) {
    return { status: "error", problem: unreadable(error) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function unreadable(error: unknown): string {
  const reason = errorMessage(error);
  return `cannot read the file (${reason}); fix its permissions or remove it`;
}
