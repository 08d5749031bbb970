import type { ListToolsOptions } from "@mcp-rt/client";
import { DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_TOOL_LIMITS, type ToolLimits } from "@mcp-rt/client/light";
import { type Logger, McpRtError } from "@mcp-rt/config";
import type { MCPManagerOptions } from "../manager-types.js";
import { DEFAULT_RESULT_CHAR_LIMIT, DEFAULT_RESULT_MEDIA_BYTE_LIMIT } from "../result-limits.js";
import type { listServerContent } from "./server-content.js";
import type { ServerRecord } from "./server-record.js";

/** Default of `minRelistIntervalMs`. */
export const DEFAULT_MIN_RELIST_INTERVAL_MS = 1000;

/** What a manager allows each server to send, resolved from its options. */
export interface ServerLimits {
  toolLimits: Required<ToolLimits>;
  maxMessageBytes: number;
  resultCharLimit: number;
  resultMediaByteLimit: number;
  minRelistIntervalMs: number;
}

/**
 * The manager's limit options with their defaults. Throws `CONFIG_INVALID`
 * naming the option for a value that is not a positive number (0 is allowed
 * for `minRelistIntervalMs`: no rate limit).
 */
export function resolveServerLimits(options: MCPManagerOptions): ServerLimits {
  const check = (field: string, value: unknown, fallback: number, min = Number.MIN_VALUE): number => {
    if (value === undefined) return fallback;
    if (typeof value === "number" && value >= min && !Number.isNaN(value)) return value;
    throw new McpRtError(
      "CONFIG_INVALID",
      `MCPManager option ${field}: expected a ${min === 0 ? "non-negative" : "positive"} number, got ${String(value)}`,
    );
  };
  const given = options.toolLimits ?? {};
  const toolLimits = { ...DEFAULT_TOOL_LIMITS };
  for (const key of Object.keys(DEFAULT_TOOL_LIMITS) as Array<keyof ToolLimits>) {
    toolLimits[key] = check(`toolLimits.${key}`, given[key], DEFAULT_TOOL_LIMITS[key]);
  }
  return {
    toolLimits,
    maxMessageBytes: check("maxMessageBytes", options.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES),
    resultCharLimit: check("resultCharLimit", options.resultCharLimit, DEFAULT_RESULT_CHAR_LIMIT),
    resultMediaByteLimit: check(
      "resultMediaByteLimit",
      options.resultMediaByteLimit,
      DEFAULT_RESULT_MEDIA_BYTE_LIMIT,
    ),
    minRelistIntervalMs: check(
      "minRelistIntervalMs",
      options.minRelistIntervalMs,
      DEFAULT_MIN_RELIST_INTERVAL_MS,
      0,
    ),
  };
}

/** The limits of one server's tool list, and where a breach goes (one warning per server and limit), and a tool left out for its `x-mcp-header` (one per tool). */
export function toolListOptions(
  record: ServerRecord,
  limits: ServerLimits,
  logger: Logger | undefined,
): Pick<ListToolsOptions, "limits" | "onLimit" | "onToolDropped"> {
  return {
    limits: limits.toolLimits,
    onLimit: (breach) => {
      if (record.firstWarning(breach.limit)) logger?.warn(breach.message);
    },
    // Named, once per tool: the server's author has a schema to fix.
    onToolDropped: (notice) => {
      if (record.firstWarning(`x-mcp-header:${notice.tool}`)) logger?.warn(notice.message);
    },
  };
}

/** The limits of one server's resource or prompt list, and where what they cut is logged (once per server). */
export function contentListOptions(
  record: ServerRecord,
  limits: ServerLimits,
  logger: Logger | undefined,
): Parameters<typeof listServerContent>[1] {
  return {
    maxItems: limits.toolLimits.maxTools,
    maxDescriptionLength: limits.toolLimits.maxDescriptionLength,
    logger,
    onLimit: (message) => {
      if (record.firstWarning(message)) logger?.warn(message);
    },
  };
}
