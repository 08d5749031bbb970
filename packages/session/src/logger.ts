import type { Logger } from "@mcp-rt/manager";

const ignore = (): void => {};

/** A logger that drops everything. */
export const silentLogger: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore };
