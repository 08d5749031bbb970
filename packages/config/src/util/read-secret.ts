/** Where a secret is read from: stdin, or anything shaped like it. */
export interface SecretInput extends AsyncIterable<string | Buffer> {
  /** True for a terminal: the secret is typed, without echo. */
  readonly isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  setEncoding?(encoding: BufferEncoding): unknown;
  on(event: "data", listener: (chunk: string | Buffer) => void): unknown;
  off(event: "data", listener: (chunk: string | Buffer) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

const ENTER = new Set(["\r", "\n", "\u0004"]);
const BACKSPACE = new Set(["\u007f", "\b"]);
const CTRL_C = "\u0003";

/**
 * Reads a secret without echoing it. From a terminal: writes `prompt` to
 * `output`, turns echo off (raw mode) and reads one line (Backspace edits,
 * Ctrl-C rejects). From a pipe or file: reads everything, minus one final
 * line break, so `op read … | mcp-rt-config key set id` works.
 */
export async function readSecret(
  input: SecretInput,
  output: { write(text: string): unknown },
  prompt: string,
): Promise<string> {
  if (!input.isTTY || !input.setRawMode) {
    let text = "";
    for await (const chunk of input) text += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    return text.replace(/\r?\n$/, "");
  }
  output.write(prompt);
  input.setEncoding?.("utf8");
  input.setRawMode(true);
  let onData: ((chunk: string | Buffer) => void) | undefined;
  try {
    return await new Promise<string>((resolve, reject) => {
      let secret = "";
      onData = (chunk) => {
        for (const char of typeof chunk === "string" ? chunk : chunk.toString("utf8")) {
          if (ENTER.has(char)) return resolve(secret);
          if (char === CTRL_C) return reject(new Error("cancelled; nothing was stored"));
          if (BACKSPACE.has(char)) secret = Array.from(secret).slice(0, -1).join("");
          else if (char >= " ") secret += char;
        }
      };
      input.on("data", onData);
      input.resume();
    });
  } finally {
    if (onData) input.off("data", onData);
    input.setRawMode(false);
    input.pause();
    output.write("\n");
  }
}
