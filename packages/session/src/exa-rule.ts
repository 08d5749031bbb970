import { isStdioConfig, type MCPServerConfig, type ReserveServer } from "@mcp-rt/config";
import type { CustomTool } from "@mcp-rt/manager";
import type { NativeReplacement } from "./native-tools.js";

/** The agent's native Exa integration: its tools for the API keys of the Exa servers left out. */
export type NativeExa = (apiKeys: string[]) => CustomTool[];

/** The `reason` {@link reserveExa} gives a server it holds back. */
export const EXA_REASON = "exa";

const EXA_HOST = "mcp.exa.ai";
const KEY_PARAM = /[?&]exaApiKey=([^&#\s"']+)/gi;

/**
 * True for an Exa search server: named `exa` (any case), or reaching
 * `mcp.exa.ai` through its `url` or one of its `args` (e.g. via `mcp-remote`).
 */
export function isExaServer(name: string, config: MCPServerConfig): boolean {
  if (name.toLowerCase() === "exa") return true;
  if (isStdioConfig(config)) return (config.args ?? []).some((arg) => arg.toLowerCase().includes(EXA_HOST));
  return config.url.toLowerCase().includes(EXA_HOST);
}

/**
 * The Exa API keys an Exa server config carries: the `exaApiKey=` query
 * parameter of its url or args, and its `EXA_API_KEY` environment variable.
 */
export function exaApiKeysOf(config: MCPServerConfig): string[] {
  const keys: string[] = [];
  const texts = isStdioConfig(config) ? (config.args ?? []) : [config.url];
  for (const text of texts) {
    for (const match of text.matchAll(KEY_PARAM)) keys.push(decode(match[1] ?? ""));
  }
  if (isStdioConfig(config) && config.env?.EXA_API_KEY) keys.push(config.env.EXA_API_KEY);
  return keys.filter((key) => key !== "");
}

/**
 * The loader rule of a session with a native Exa integration: Exa servers
 * are held back (reason `"exa"`) and their API keys handed on.
 */
export const reserveExa: ReserveServer = ({ name, config }) =>
  isExaServer(name, config) ? { reason: EXA_REASON, keys: exaApiKeysOf(config) } : undefined;

/** The session's stand-in for the Exa servers {@link reserveExa} holds back: the agent's native Exa tools. */
export function nativeExaReplacement(create: NativeExa): NativeReplacement {
  return {
    name: "Exa",
    reason: EXA_REASON,
    what: "an Exa server",
    instead: "native Exa tool",
    create,
  };
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
