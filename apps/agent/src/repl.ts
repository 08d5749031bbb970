import { Writable } from "node:stream";
import { abortError } from "@mcp-rt/config/util";
import type { QuestionAsker } from "./elicitation.js";
import type { LineRunner } from "./line-runner.js";
import type { Output } from "./output.js";
import { type Readline, readline } from "./readline.js";

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
  attach(rl: Readline.Interface | undefined): void;
  idle: boolean;
}

/** A {@link PromptWriter} on `stream`. */
export function createPromptWriter(stream: NodeJS.WriteStream): PromptWriter {
  let rl: Readline.Interface | undefined;
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
      readline().cursorTo(stream, 0);
      readline().clearLine(stream, 0);
      stream.write(chunk);
      rl.prompt(true);
    },
  };
}

/** Reads a secret (an API key) without showing it; the REPL takes it over while it runs. */
export interface SecretReader {
  read(prompt: string, signal?: AbortSignal): Promise<string>;
}

/**
 * The REPL's terminal output, which can be silenced: while a secret is typed,
 * readline's echo of it goes nowhere.
 */
class SilenceableOutput extends Writable {
  silent = false;
  readonly #target: NodeJS.WriteStream;

  constructor(target: NodeJS.WriteStream) {
    super();
    this.#target = target;
  }

  /** Line editing needs the terminal's width. */
  get columns(): number {
    return this.#target.columns;
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    if (!this.silent) this.#target.write(chunk);
    done();
  }
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
  /** On a terminal, the REPL reads secrets itself (echo off) while it runs. */
  secrets?: SecretReader;
  /** On a terminal, the REPL puts its question asker here while it runs (servers' elicitations use it). */
  questions?: { asker?: QuestionAsker | undefined };
}

/**
 * The interactive loop (node:readline): reads a line, runs it, prompts again.
 * Resolves when the user leaves: `/quit`, end of input (Ctrl-D or a closed
 * pipe), or Ctrl-C twice in a row. The first Ctrl-C cancels what is running.
 */
export function runRepl(options: ReplOptions): Promise<"quit" | "eof" | "interrupt"> {
  const { runner, output, writer, terminal } = options;
  const rlOutput = terminal ? new SilenceableOutput(options.stream) : options.stream;
  const rl = readline().createInterface({
    input: options.input,
    output: rlOutput,
    terminal,
    prompt: PROMPT,
    historySize: 200,
  });
  writer.attach(rl);
  const { secrets } = options;
  const readBefore = secrets?.read;
  if (secrets && rlOutput instanceof SilenceableOutput) {
    secrets.read = (prompt, signal) => askHidden(rl, rlOutput, options.stream, prompt, signal);
  }
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

  // A question a server asked (an elicitation) is what a Ctrl-C cancels first: the tool call goes on.
  let question: AbortController | undefined;
  if (terminal && options.questions) {
    options.questions.asker = {
      ask: (prompt) => {
        const controller = new AbortController();
        question = controller;
        return ask(rl, prompt, controller.signal).finally(() => {
          if (question === controller) question = undefined;
        });
      },
    };
  }
  const onInterrupt = (): void => {
    if (question) {
      question.abort(new DOMException("Declined with Ctrl-C", "AbortError"));
      return;
    }
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
    if (secrets && readBefore) secrets.read = readBefore;
    if (options.questions) delete options.questions.asker;
    process.off("SIGINT", onInterrupt);
    finish(ending ?? "eof");
  });
  return done;
}

/** Asks one question on the REPL's line; the answer stays out of the history. Rejects with an `AbortError` on abort. */
function ask(rl: Readline.Interface, prompt: string, signal: AbortSignal): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const onAbort = (): void => reject(abortError("The question", signal.reason));
    signal.addEventListener("abort", onAbort, { once: true });
    rl.question(prompt, { signal }, (answer) => {
      signal.removeEventListener("abort", onAbort);
      const history = (rl as Readline.Interface & { history?: string[] }).history;
      if (history?.[0] === answer) history.shift();
      resolve(answer);
    });
  });
}

/**
 * Asks for a secret on the REPL's own line, with readline's echo silenced, and
 * keeps the answer out of the line history (up-arrow must not bring it back).
 * Rejects with an `AbortError` when `signal` aborts (Ctrl-C).
 */
function askHidden(
  rl: Readline.Interface,
  output: SilenceableOutput,
  stream: NodeJS.WriteStream,
  prompt: string,
  signal: AbortSignal | undefined,
): Promise<string> {
  stream.write(prompt);
  output.silent = true;
  return new Promise<string>((resolve, reject) => {
    const onAbort = (): void => reject(abortError("Reading the key", signal?.reason));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    rl.question("", signal ? { signal } : {}, (answer) => {
      signal?.removeEventListener("abort", onAbort);
      const history = (rl as Readline.Interface & { history?: string[] }).history;
      if (history?.[0] === answer) history.shift();
      resolve(answer);
    });
  }).finally(() => {
    output.silent = false;
    stream.write("\n");
  });
}
