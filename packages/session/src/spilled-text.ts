import { createReadStream } from "node:fs";

/** The built-in tool that reads a spilled result page by page. */
export const READ_RESULT_NAME = "mcp_read_result";

/** A result the session wrote to a file, as `details.spill` of the result the model got. */
export interface SpilledResult {
  /** What the model passes to `mcp_read_result`, e.g. `result-1`. */
  id: string;
  /** The file holding the whole text. */
  path: string;
  /** How many characters the whole text has. */
  chars: number;
}

/** What the model sees of a spilled text: its head, a note saying what is left out and how to read it, its tail. */
export function previewText(text: string, entry: SpilledResult & { shown: number; page: number }): string {
  const { shown, page } = entry;
  const half = Math.floor(shown / 2);
  const head = text.slice(0, half);
  const tail = half === 0 ? "" : text.slice(-half);
  const from = head.length;
  const to = text.length - tail.length;
  const note =
    `[mcp-rt: this result has ${entry.chars} characters, too many to show here; characters ${from} to ${to} are left out. ` +
    `The whole text is kept as result "${entry.id}" (file ${entry.path}). ` +
    `Read it with ${READ_RESULT_NAME} {"id":"${entry.id}","offset":${from},"limit":${page}}.]`;
  return [head, note, tail].filter((part) => part !== "").join("\n\n");
}

/** `limit` characters of a UTF-8 file from character `offset`, streamed: a page never reads the whole file into memory. */
export async function readChars(
  path: string,
  { offset, limit }: { offset: number; limit: number },
): Promise<string> {
  const parts: string[] = [];
  let seen = 0;
  let wanted = limit;
  for await (const chunk of createReadStream(path, { encoding: "utf8", highWaterMark: 1 << 16 })) {
    const text = chunk as string;
    const start = Math.max(0, offset - seen);
    seen += text.length;
    if (start >= text.length) continue;
    const part = text.slice(start, start + wanted);
    parts.push(part);
    wanted -= part.length;
    if (wanted === 0) break;
  }
  return parts.join("");
}
