import { POLICY_NAMES } from "@mcp-rt/config/explain";
import { displayPath, plural } from "@mcp-rt/config/util";
import type { LoadConfigsResult, MCPServerState } from "@mcp-rt/manager";
import { failure, type MCPCommandResult } from "./mcp-command-result.js";
import type { NativeReplacement } from "./native-tools.js";

/** Options of {@link CommandText}. */
export interface CommandTextOptions {
  /** Where paths are shown relative to. */
  where: { cwd: string; homeDir: string };
  /** The servers' states now. */
  states: () => readonly MCPServerState[];
  /** The session's native tools that stand in for servers its `reserve` rule holds back, when it has them. */
  native: NativeReplacement | undefined;
}

/** How `/mcp` commands word paths, server states and why a server does not start. */
export class CommandText {
  /** Where paths are shown relative to. */
  readonly where: { cwd: string; homeDir: string };
  readonly #states: () => readonly MCPServerState[];
  readonly #native: NativeReplacement | undefined;

  constructor(options: CommandTextOptions) {
    this.where = options.where;
    this.#states = options.states;
    this.#native = options.native;
  }

  /** A path as a person reads it. */
  show(path: string): string {
    return displayPath(path, this.where);
  }

  /** The answer to a name nobody knows. */
  unknownServer(name: string, known: string[]): MCPCommandResult {
    const list = known.length > 0 ? `Known servers: ${known.join(", ")}.` : "No MCP servers are configured.";
    return failure({ code: "UNKNOWN_SERVER", message: `No MCP server named "${name}". ${list}`, known });
  }

  /** How `/mcp list` words a server held back with `reason`, after `filtered: `. */
  heldBackNote(reason: string): string {
    const native = this.#native;
    return native?.reason === reason
      ? `${native.what}, replaced by the session's ${native.instead}`
      : `held back by this session's \`reserve\` rule (reason "${reason}")`;
  }

  /** How `explain` words the reason of the servers the native tools stand in for (its `reserveReasons`). */
  reserveReasons(): Record<string, string> {
    const native = this.#native;
    if (!native) return {};
    return {
      [native.reason]: `${native.what}, left out because the session uses its ${native.instead} instead`,
    };
  }

  /** One line on where a server stands now, as the manager sees it. */
  stateLine(name: string): { line: string; state: MCPServerState | undefined } {
    const state = this.#states().find((entry) => entry.name === name);
    if (!state) return { line: `○ ${name}: not running`, state: undefined };
    switch (state.status) {
      case "connected":
        return {
          line: `● ${name}: connected, ${plural(state.toolCount, "tool")}${state.connectedMs === undefined ? "" : ` in ${Math.round(state.connectedMs)} ms`}`,
          state,
        };
      case "needs-auth":
        return { line: `🔒 ${name}: needs you to sign in; run /mcp login ${name}`, state };
      case "failed": {
        const tail = state.lastError?.stderrTail?.trim();
        return {
          line: `✗ ${name}: failed${state.lastError ? ` — ${state.lastError.message}` : ""}${tail ? ` (its stderr: /mcp list ${name})` : ""}`,
          state,
        };
      }
      default:
        return {
          line: `◌ ${name}: ${state.deferred ? `starting; ${state.toolCount} tools from the cache meanwhile` : "still connecting; its tools follow when it is up"}`,
          state,
        };
    }
  }

  /** Why discovery does not start `name`, or `undefined` when it does. */
  whyNotStarted(name: string, discovery: LoadConfigsResult): string | undefined {
    const blocked = discovery.blocked?.find((entry) => entry.name === name);
    if (blocked) {
      return `⛔ ${name} is forbidden by ${POLICY_NAMES[blocked.policy]} (${this.show(blocked.policyFile)}): ${blocked.rule}; no config file or option here overrides it`;
    }
    const approval = discovery.needsApproval.find((entry) => entry.name === name);
    if (approval) return `? ${name} waits for project approval: review it, then run /mcp trust`;
    const disabled = discovery.disabled.find((entry) => entry.name === name);
    if (disabled) {
      return `– ${name} is still disabled by its own config in ${this.show(disabled.source.path)} (${disabled.source.providerName}); mcp-rt does not edit other clients' files, change \`enabled\` there`;
    }
    const held = discovery.filtered.find((entry) => entry.name === name);
    if (held) {
      const native = this.#native;
      return native?.reason === held.reason
        ? `– ${name} is ${native.what}; this session uses its ${native.instead} instead`
        : `– ${name} is held back by this session's \`reserve\` rule (reason "${held.reason}")`;
    }
    const issues = discovery.errors.filter((issue) => issue.server === name);
    if (issues.length > 0)
      return `✗ ${name} has an invalid config: ${issues.map((issue) => issue.message).join("; ")}`;
    return undefined;
  }
}
