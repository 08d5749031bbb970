import { plural } from "@mcp-rt/config/util";
import { McpRtError } from "@mcp-rt/manager";
import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import type { ArgsResult } from "../mcp-command-args.js";
import { failure, type MCPCommandResult, ok } from "../mcp-command-result.js";
import { isValidServerName } from "../server-name.js";
import { reviewText } from "../tool-review-text.js";

/** What `/mcp review` was asked: every server with held tools, or one server, and a decision on some of its tools. */
export interface ReviewArgs {
  name?: string;
  decision?: "approve" | "hold";
  /** The held tools decided on; absent: all of them. */
  tools?: string[];
}

/** `/mcp review [<name> [approve|hold [tool…]]]`. */
export function parseReviewArgs(words: readonly string[]): ArgsResult<ReviewArgs> {
  const [name, decision, ...tools] = words;
  if (name === undefined) return { ok: true, value: {} };
  if (name.startsWith("-")) return { ok: false, error: `unknown option "${name}"` };
  if (!isValidServerName(name)) return { ok: false, error: `"${name}" is not a valid server name` };
  if (decision === undefined) return { ok: true, value: { name } };
  if (decision !== "approve" && decision !== "hold") {
    return { ok: false, error: `expected "approve" or "hold" after the server's name, got "${decision}"` };
  }
  return { ok: true, value: { name, decision, ...(tools.length > 0 ? { tools } : {}) } };
}

/**
 * `/mcp review`: the servers whose tools are held. `/mcp review <name>`: each
 * held tool of the server with why (changed, new, poisoned), a readable diff
 * against the definition approved before (description words, schema paths,
 * annotations) and what the poisoning check found. `… approve [tool…]`
 * records them and gives them to the model; `… hold [tool…]` keeps holding
 * them without asking again until they change.
 */
export const reviewCommand: MCPCommand<ReviewArgs> = {
  name: "review",
  usage: "/mcp review [<name> [approve|hold [tool…]]]",
  description: "show tools held since their definitions changed (with a diff); approve them or keep holding",
  parse: parseReviewArgs,
  run: review,
};

async function review({ ctx, input }: MCPCommandCall<ReviewArgs>): Promise<MCPCommandResult> {
  const { manager } = ctx;
  const states = manager.getServerStates();
  if (input.name === undefined) {
    const held = states.filter((state) => state.heldTools !== undefined);
    if (held.length === 0) return ok("No MCP server has held tools.", { servers: [] });
    const lines = held.map(
      (state) =>
        `  ${state.name}: ${plural(state.heldTools?.length ?? 0, "tool")} held (${state.heldTools?.join(", ")})`,
    );
    return ok([`Held until you approve (see /mcp review <name>):`, ...lines].join("\n"), {
      servers: held.map((state) => ({ name: state.name, heldTools: state.heldTools })),
    });
  }
  const { name } = input;
  if (!states.some((state) => state.name === name)) {
    return ctx.text.unknownServer(
      name,
      states.map((state) => state.name),
    );
  }
  try {
    if (input.decision === undefined) {
      const result = await manager.reviewTools(name);
      return ok(reviewText(result), result);
    }
    const decided =
      input.decision === "approve"
        ? await manager.approveTools(name, input.tools)
        : await manager.holdTools(name, input.tools);
    ctx.session.syncMCPTools();
    if (decided.length === 0) return ok(`${name} has no held tool.`, { [input.decision]: [] });
    const text =
      input.decision === "approve"
        ? `Approved ${plural(decided.length, "tool")} of ${name}: ${decided.join(", ")}; the model has them now.`
        : `Keeping ${plural(decided.length, "tool")} of ${name} held: ${decided.join(", ")}; you will not be asked again until they change.`;
    return ok(text, { [input.decision === "approve" ? "approved" : "held"]: decided });
  } catch (error) {
    if (McpRtError.isInstance(error)) return failure({ code: error.code, message: error.message });
    throw error;
  }
}
