import { isAbsolute, resolve } from "node:path";
import { isStdioConfig, type MCPServerConfig, McpRtError } from "@mcp-rt/config";
import { createServerEnv } from "./child-env.js";
import type { ClientTransport } from "./client-transport.js";
import { createStdioTransport } from "./stdio-transport.js";

/** What every transport may need besides the config. */
export interface TransportContext {
  /** The agent's working folder (absolute). */
  cwd: string;
  /** The environment stdio servers inherit from (before filtering). */
  parentEnv: Record<string, string | undefined>;
  /** Receives stderr text of stdio servers. */
  onStderr?: ((chunk: string) => void) | undefined;
  /** See `ConnectOptions.stdinGraceMs`. */
  stdinGraceMs?: number | undefined;
  /** See `ConnectOptions.killGraceMs`. */
  killGraceMs?: number | undefined;
}

/** The working folder of a stdio server: its config's `cwd` against the agent's, else the agent's. */
export function resolveServerCwd(configCwd: string | undefined, agentCwd: string): string {
  if (!configCwd) return agentCwd;
  return isAbsolute(configCwd) ? configCwd : resolve(agentCwd, configCwd);
}

/** Builds the transport a config asks for. */
export function createTransport(
  name: string,
  config: MCPServerConfig,
  context: TransportContext,
): ClientTransport {
  if (isStdioConfig(config)) {
    return createStdioTransport({
      command: config.command,
      args: config.args ?? [],
      env: createServerEnv({ parent: context.parentEnv, env: config.env ?? {} }),
      cwd: resolveServerCwd(config.cwd, context.cwd),
      ...(context.onStderr ? { onStderr: context.onStderr } : {}),
      ...(context.stdinGraceMs !== undefined ? { stdinGraceMs: context.stdinGraceMs } : {}),
      ...(context.killGraceMs !== undefined ? { killGraceMs: context.killGraceMs } : {}),
    });
  }
  throw new McpRtError(
    "CONFIG_INVALID",
    `MCP server "${name}" is a remote server (url: ${config.url}); this version of @mcp-rt/client connects to stdio servers only`,
    { server: name },
  );
}
