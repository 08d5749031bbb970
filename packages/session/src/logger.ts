import { type Logger, type MCPLoadProblem, toLoadErrors } from "@mcp-rt/manager";

const ignore = (): void => {};

/** A logger that drops everything. */
export const silentLogger: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore };

/**
 * Logs load problems in the design document's `{ path, error }` terms (the
 * path once, where the message does not start with it already): file and
 * cache problems as warnings, the rest as errors.
 */
export function logLoadProblems(logger: Logger, problems: readonly MCPLoadProblem[]): void {
  for (const [i, { path, error }] of toLoadErrors(problems).entries()) {
    const line = error.startsWith(path) ? error : `${path}: ${error}`;
    const kind = problems[i]!.kind;
    if (kind === "file" || kind === "cache") logger.warn(`MCP config ${line}`);
    else logger.error(`MCP ${line}`);
  }
}
