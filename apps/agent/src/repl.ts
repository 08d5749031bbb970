import { clearLine, createInterface, cursorTo, type Interface } from "node:readline";
import type { LineRunner } from "./line-runner.js";
import type { Output } from "./output.js";

/** The prompt of the REPL. */
export const PROMPT = "› ";

/**
 * Writes output without tearing the prompt: while the REPL waits for input, a
 * line that arrives (a deferred server came up, a server dropped) is printed
 * above the prompt, and the prompt with what was typed so far is drawn again.
 */
export interface PromptWriter {
  write(chunk: string): void;
  /** Set by the REPL: the interface whose prompt to redraw, and whether it is showing. */
  attach(rl: Interface | undefined): void;
  idle: boolean;
}

/** A {@link PromptWriter} on `stream`. */
export function createPromptWriter(stream: NodeJS.WriteStream): PromptWriter {
  let rl: Interface | undefined;
  return {
    idle: false,
    attach(next) {
      rl = next;
    },
    write(chunk) {
      if (!rl || !this.idle || !stream.isTTY) {
        stream.write(chunk);
        return;
      }
      cursorTo(stream, 0);
      clearLine(stream, 0);
      stream.write(chunk);
      rl.prompt(true);
    },
  };
}

/** Options of {@link runRepl}. */
export interface ReplOptions {
  runner: LineRunner;
  output: Output;
  writer: PromptWriter;
  input: NodeJS.ReadableStream;
  stream: NodeJS.WriteStream;
  /** True when stdin and stdout are a terminal: a prompt, line editing, Ctrl-C as a key. */
  terminal: boolean;
}

/**
 * The interactive loop (node:readline): reads a line, runs it, prompts again.
 * Resolves when the user leaves: `/quit`, end of input (Ctrl-D or a closed
 * pipe), or Ctrl-C twice in a row. The first Ctrl-C cancels what is running.
 */
export function runRepl(options: ReplOptions): Promise<"quit" | "eof" | "interrupt"> {
  const { runner, output, writer, terminal } = options;
  const rl = createInterface({
    input: options.input,
    output: options.stream,
    terminal,
    prompt: PROMPT,
    historySize: 200,
  });
  writer.attach(rl);
  let finish!: (reason: "quit" | "eof" | "interrupt") => void;
  const done = new Promise<"quit" | "eof" | "interrupt">((resolve) => {
    finish = resolve;
  });
  let ending: "quit" | "interrupt" | undefined;
  // Resolves at once: a line still running (its signal already aborted) must not keep the user waiting.
  const end = (reason: "quit" | "interrupt"): void => {
    ending ??= reason;
    writer.idle = false;
    rl.close();
    finish(ending);
  };

  const onInterrupt = (): void => {
    const result = runner.interrupt();
    if (result === "exit") {
      end("interrupt");
      return;
    }
    if (result === "armed") {
      if (terminal) {
        // Like a shell: drop what was typed (end of line, then delete to its start).
        rl.write(null, { ctrl: true, name: "e" });
        rl.write(null, { ctrl: true, name: "u" });
      }
      output.write("notice", "(Ctrl-C again to exit, or type /quit)", { event: "interrupt" });
    }
  };
  rl.on("SIGINT", onInterrupt);
  // Without a terminal (or from `kill -INT`), Ctrl-C arrives as a signal, not as a key.
  process.on("SIGINT", onInterrupt);

  void (async () => {
    if (terminal) {
      writer.idle = true;
      rl.prompt();
    }
    for await (const line of rl) {
      writer.idle = false;
      const outcome = await runner.run(line);
      if (outcome === "quit") return end("quit");
      if (ending) return;
      if (terminal) {
        writer.idle = true;
        rl.prompt();
      }
    }
  })().finally(() => {
    writer.idle = false;
    writer.attach(undefined);
    process.off("SIGINT", onInterrupt);
    finish(ending ?? "eof");
  });
  return done;
}
