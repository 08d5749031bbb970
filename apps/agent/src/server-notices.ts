import { plural } from "@mcp-rt/config/util";
import type { MCPManager } from "@mcp-rt/session";
import type { Output } from "./output.js";

/** Options of {@link followServers}. */
export interface FollowServersOptions {
  manager: MCPManager;
  output: Output;
  /** True while a command runs: its own output says what changed, so nothing is added. */
  busy: () => boolean;
}

/**
 * After startup, tells the user when a server that was deferred or still
 * connecting comes up, so they know its tools are live now. Failures and
 * dropped connections reach the user through the manager's logger. Returns
 * the unsubscribe function.
 */
export function followServers(options: FollowServersOptions): () => void {
  const { manager, output, busy } = options;
  return manager.on("server:connected", ({ name, ms, toolCount }) => {
    if (busy()) return;
    output.write(
      "notice",
      `✓ ${name} is up (${Math.round(ms)} ms · ${plural(toolCount, "tool")}); its tools are live now`,
      { event: "server:connected", name, ms: Math.round(ms), toolCount },
    );
  });
}
