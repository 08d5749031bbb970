import { errorMessage } from "@mcp-rt/config/util";
import type { Commands, LineOutcome } from "./commands.js";
import type { Output } from "./output.js";
import { isAbortError } from "./tool-runner.js";

/** What a Ctrl-C did. */
export type InterruptResult =
  /** A running line was aborted. */
  | "cancelled"
  /** Nothing was running; the next Ctrl-C exits. */
  | "armed"
  /** Second Ctrl-C in a row: time to exit. */
  | "exit";

/**
 * Runs lines one at a time, each with its own `AbortController`, and owns what
 * Ctrl-C means: the first aborts the running line (its signal reaches the
 * tool's server as `notifications/cancelled`), a second one in a row exits.
 */
export interface LineRunner {
  /** Runs one line; an abort comes back as `"cancelled"`, an unexpected error as `"failed"`. */
  run(line: string): Promise<LineOutcome | "cancelled">;
  /** Handles one Ctrl-C. */
  interrupt(): InterruptResult;
  /** The line running now, if any. */
  readonly running: string | undefined;
}

/** The agent's {@link LineRunner} over its commands. */
export function createLineRunner(commands: Commands, output: Output): LineRunner {
  let running: AbortController | undefined;
  let line: string | undefined;
  let armed = false;
  return {
    get running() {
      return running ? line : undefined;
    },
    interrupt() {
      if (armed) return "exit";
      armed = true;
      if (!running) return "armed";
      running.abort(new DOMException("Cancelled with Ctrl-C", "AbortError"));
      return "cancelled";
    },
    async run(text) {
      armed = false;
      const controller = new AbortController();
      running = controller;
      line = text;
      try {
        return await commands.run(text, controller.signal);
      } catch (error) {
        if (controller.signal.aborted && isAbortError(error)) {
          output.write("error", "Cancelled (the server was told to stop). Ctrl-C again exits.", {
            code: "ABORTED",
          });
          return "cancelled";
        }
        const message = errorMessage(error);
        output.write("error", `✗ ${message}`, { code: "ERROR" });
        return "failed";
      } finally {
        if (running === controller) running = undefined;
      }
    },
  };
}
