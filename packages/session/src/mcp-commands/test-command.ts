import { errorMessage, plural } from "@mcp-rt/config/util";
import { describeEra, McpRtError } from "@mcp-rt/manager";
import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { parseNameArgs } from "../mcp-command-args.js";
import { failure, indent, type MCPCommandResult, ok } from "../mcp-command-result.js";

/** `/mcp test <name>`: a separate, temporary connection; the session's own connection is not touched. */
export const testCommand: MCPCommand<string> = {
  name: "test",
  usage: "/mcp test <name>",
  description: "connect once, list the tools, disconnect",
  parse: parseNameArgs,
  run: test,
};

async function test({ ctx, input: name }: MCPCommandCall<string>): Promise<MCPCommandResult> {
  const discovery = await ctx.discover();
  const config = discovery.configs[name];
  if (!config) {
    const known = ctx.knownNames(discovery);
    if (!known.includes(name)) return ctx.text.unknownServer(name, known);
    const why = ctx.text.whyNotStarted(name, discovery) ?? `${name} is not started by this session`;
    return failure({ code: "NOT_CONNECTED", message: `Cannot test ${name}: ${why.replace(/^\S+ /, "")}` });
  }
  const sourcePath = discovery.sources[name]?.path;
  try {
    const probe = await ctx.manager.testServer({
      name,
      config,
      ...(ctx.testTimeoutMs === undefined ? {} : { timeoutMs: ctx.testTimeoutMs }),
      ...(sourcePath ? { sourcePath } : {}),
    });
    const info = probe.serverInfo as { name?: string; version?: string } | undefined;
    const data = {
      name,
      serverName: info?.name,
      serverVersion: info?.version,
      protocolVersion: probe.protocolVersion,
      protocol: probe.protocol,
      toolCount: probe.tools.length,
      tools: probe.tools.map((tool) => tool.name),
      ms: probe.ms,
    };
    const text = [
      `● ${name}: ${info?.name ?? "?"} ${info?.version ?? ""}`.trimEnd() +
        `, protocol ${describeEra(probe.protocol)}, ${probe.ms} ms`,
      `era: ${probe.protocol.decision.text}`,
      `${plural(probe.tools.length, "tool")}${probe.tools.length > 0 ? `: ${data.tools.join(", ")}` : ""}`,
      "Connection closed.",
    ].join("\n");
    return ok(text, data);
  } catch (error) {
    const message = errorMessage(error);
    const tail = McpRtError.isInstance(error) ? error.stderrTail : undefined;
    const code = McpRtError.isInstance(error) ? error.code : "ERROR";
    const result = failure({
      code,
      message: `${name} failed the test: ${message}`,
      ...(tail ? { stderrTail: tail } : {}),
    });
    if (tail?.trim()) result.text += `\n  stderr:\n${indent(tail.trimEnd(), "    ")}`;
    return result;
  }
}
