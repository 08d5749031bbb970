import { plural } from "@mcp-rt/config/util";
import type { MCPConfigChange, MCPManager } from "@mcp-rt/session";
import type { Output } from "./output.js";

/** Options of {@link followServers}. */
export interface FollowServersOptions {
  manager: MCPManager;
  output: Output;
  /** The line running now, if any: a command's own output says what it changed, so nothing is added. */
  running: () => string | undefined;
}

/** How each kind of config change is shown: one line per server. */
const CHANGE_LINES: ReadonlyArray<[keyof Omit<MCPConfigChange, "unchanged">, (name: string) => string]> = [
  ["restarted", (name) => `↻ ${name} restarted (config changed)`],
  ["added", (name) => `+ ${name} started`],
  ["removed", (name) => `− ${name} removed`],
];

/**
 * After startup, tells the user when a server that was deferred or still
 * connecting comes up, so they know its tools are live now, and, one line
 * per server, what an edit of the config files changed (a `/mcp reload`
 * says so itself). Failures and dropped connections reach the user through
 * the manager's logger. Returns the unsubscribe function.
 */
export function followServers(options: FollowServersOptions): () => void {
  const { manager, output, running } = options;
  const offConnected = manager.on("server:connected", ({ name, ms, toolCount }) => {
    if (running() !== undefined) return;
    output.write(
      "notice",
      `✓ ${name} is up (${Math.round(ms)} ms · ${plural(toolCount, "tool")}); its tools are live now`,
      { event: "server:connected", name, ms: Math.round(ms), toolCount },
    );
  });
  const offChanged = manager.on("config:changed", (change) => {
    if (running()?.startsWith("/mcp")) return;
    for (const [kind, line] of CHANGE_LINES) {
      for (const name of change[kind])
        output.write("notice", line(name), { event: "config:changed", name, change: kind });
    }
  });
  return () => {
    offConnected();
    offChanged();
  };
}
