/** A bounded buffer of the most recent text a server wrote to stderr. */
export interface StderrBuffer {
  /** Adds text; the oldest text is dropped once the buffer is over its limit. */
  append(text: string): void;
  /** Everything still held (at most the limit, in characters). */
  text(): string;
  /** The last `maxLines` lines, at most `maxChars` characters, trimmed. */
  tail(maxLines?: number, maxChars?: number): string;
}

/** Default size of a server's stderr ring buffer, in characters (~64 KiB). */
export const STDERR_BUFFER_LIMIT: number = 64 * 1024;

/** Creates a {@link StderrBuffer} holding at most `limit` characters. */
export function createStderrBuffer(limit: number = STDERR_BUFFER_LIMIT): StderrBuffer {
  let chunks: string[] = [];
  let size = 0;
  let truncated = false;

  const text = (): string => {
    if (chunks.length > 1) chunks = [chunks.join("")];
    return chunks[0] ?? "";
  };

  return {
    append(chunk) {
      if (chunk.length === 0) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        const joined = chunks.join("").slice(-limit);
        chunks = [joined];
        size = joined.length;
        truncated = true;
      }
    },
    text,
    tail(maxLines = 20, maxChars = 4000) {
      const all = text().trimEnd();
      let lines = all.split(/\r?\n/);
      // The first line of a truncated buffer is a fragment; drop it when more follow.
      if (truncated && lines.length > 1) lines = lines.slice(1);
      let result = lines.slice(-maxLines).join("\n");
      if (result.length > maxChars) result = `…${result.slice(-(maxChars - 1))}`;
      return result.trim();
    },
  };
}
