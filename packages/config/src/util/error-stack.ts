import { errorMessage } from "./error-message.js";

/**
 * What a crash report shows of a thrown value: an `Error`'s stack trace (which
 * starts with its name and message), else {@link errorMessage}. For the last
 * line a process prints before it exits, where the place it failed matters.
 */
export function errorStack(error: unknown): string {
  return (error instanceof Error ? error.stack : undefined) ?? errorMessage(error);
}
