import { McpRtError, redactConfigText } from "@mcp-rt/config";
import { ProtocolError, SdkError, type SdkErrorCode } from "@modelcontextprotocol/client";
import type { ProcessExit } from "./client-transport.js";
import { mostTellingLine } from "./telling-line.js";

/** "process exited with code 3" / "process was killed by SIGKILL". */
export function describeExit(exit: ProcessExit): string {
  if (exit.signal) return `process was killed by ${exit.signal}`;
  return `process exited with code ${exit.code ?? "unknown"}`;
}

/**
 * Adds the most telling line of the stderr tail, if any, the way every
 * connection error shows it: one line (`mostTellingLine`); the whole tail
 * stays on the error's `stderrTail`.
 */
export function withStderr(message: string, stderrTail: string | undefined): string {
  const line = stderrTail ? mostTellingLine(stderrTail) : undefined;
  return line ? `${message}. stderr: ${line}` : message;
}

/** The system error code (`ENOENT`, `EPIPE`…) of a Node error, else undefined. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The JSON-RPC error code of an SDK `ProtocolError` (an error the server answered with), else undefined. */
export function rpcCode(error: unknown): number | undefined {
  if (error instanceof ProtocolError) return error.code;
  return undefined;
}

/** The code of an SDK-local `SdkError` (`REQUEST_TIMEOUT`, `CONNECTION_CLOSED`, …: never from the wire), else undefined. */
export function sdkCode(error: unknown): SdkErrorCode | undefined {
  if (error instanceof SdkError) return error.code;
  return undefined;
}

/** The configs a message is scrubbed with: the one connected with, and the one written. */
export interface SecretsOf {
  /** The config connected with (resolved: `!command` outputs filled in). */
  config: unknown;
  /** The config before its `!command` values ran, when it differs. */
  written?: unknown;
}

/**
 * `error` with a message, stderr tail and details that carry no credential
 * of the config nor any URL credential or token shape (`redactConfigText`):
 * what a server or the network answered may quote them. The server's name
 * stays readable. The same error when there was nothing to hide.
 */
export function withoutSecrets<T extends Error>(error: T, secrets: SecretsOf): T | McpRtError {
  if (!McpRtError.isInstance(error)) return error;
  const options = {
    ...(secrets.written === undefined ? {} : { written: secrets.written }),
    ...(error.server === undefined ? {} : { server: error.server }),
  };
  const redact = (text: string): string => redactConfigText(text, { config: secrets.config, ...options });
  const message = redact(error.message);
  const stderrTail = error.stderrTail === undefined ? undefined : redact(error.stderrTail);
  const details = error.details === undefined ? undefined : redactStrings(error.details, redact);
  if (message === error.message && stderrTail === error.stderrTail && details === error.details) return error;
  return error.with({ message, stderrTail, details });
}

/**
 * `value` with `redact` applied to every string in it (plain objects and
 * arrays, a few levels deep): the same value when nothing changed.
 */
function redactStrings<T>(value: T, redact: (text: string) => string, depth = 0): T {
  if (typeof value === "string") return redact(value) as T;
  if (depth > 4 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => redactStrings(item, redact, depth + 1));
    return items.some((item, index) => item !== value[index]) ? (items as T) : value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const redacted = redactStrings(item, redact, depth + 1);
    if (redacted !== item) changed = true;
    return [key, redacted] as const;
  });
  return changed ? (Object.fromEntries(entries) as T) : value;
}
