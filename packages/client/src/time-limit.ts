import { McpRtError } from "@mcp-rt/config";
import { inConfig } from "@mcp-rt/config/util";

/** True for a usable time limit: a positive number of ms (`Infinity` included). */
export function isTimeLimit(value: unknown): value is number {
  return typeof value === "number" && value > 0;
}

/** `CONFIG_INVALID` unless the config's `timeout` and `toolTimeout` are usable time limits (or unset). */
export function checkConfigTimeLimits(
  name: string,
  config: { timeout?: unknown; toolTimeout?: unknown },
  sourcePath: string | undefined,
): void {
  for (const field of ["timeout", "toolTimeout"] as const) {
    const value = config[field];
    if (value === undefined || isTimeLimit(value)) continue;
    throw new McpRtError(
      "CONFIG_INVALID",
      `MCP server "${name}" has an invalid "${field}": ${String(value)} is not a positive number of milliseconds (fix "${field}" ${inConfig(sourcePath)})`,
      { server: name },
    );
  }
}

/** A `TypeError` unless an option is unset or a usable time limit (a caller's mistake, not the config's). */
export function checkTimeOption(option: string, value: unknown): void {
  if (value !== undefined && !isTimeLimit(value)) {
    throw new TypeError(`"${option}" must be a positive number of milliseconds, got ${String(value)}`);
  }
}
