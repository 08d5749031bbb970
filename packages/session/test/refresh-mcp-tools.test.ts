import type { Logger } from "@mcp-rt/manager";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../src/agent-session.js";
import { fakeTool } from "./fake-tool.js";

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { debug() {}, info() {}, warn: (message) => warnings.push(message), error() {}, warnings };
}

describe("AgentSession.refreshMCPTools", () => {
  it("keeps the agent's own tools and their active state, activating every MCP tool", () => {
    const session = new AgentSession();
    const read = fakeTool("read_file");
    const bash = fakeTool("bash");
    const edit = fakeTool("edit");
    for (const tool of [read, bash, edit]) session.registry.add(tool);
    session.registry.setActive(["edit", "read_file"]); // bash deliberately inactive

    session.refreshMCPTools([fakeTool("mcp_a_one"), fakeTool("mcp_a_two")]);
    expect(session.registry.active()).toEqual(["edit", "read_file", "mcp_a_one", "mcp_a_two"]);

    session.refreshMCPTools([fakeTool("mcp_b_three")]);
    const names = session.registry.list().map((tool) => tool.name);
    expect(names).toEqual(["read_file", "bash", "edit", "mcp_b_three"]);
    expect(session.registry.list().slice(0, 3)).toEqual([read, bash, edit]);
    expect(session.registry.active()).toEqual(["edit", "read_file", "mcp_b_three"]);
  });

  it("removes its MCP tools by identity, not by name prefix", () => {
    const session = new AgentSession();
    const ownLookalike = fakeTool("mcp_lookalike_tool"); // the agent's own tool, named like an MCP one
    session.registry.add(ownLookalike);
    session.registry.setActive(["mcp_lookalike_tool"]);
    session.refreshMCPTools([fakeTool("mcp_a_one")]);
    session.refreshMCPTools([]);
    expect(session.registry.list()).toEqual([ownLookalike]);
    expect(session.registry.active()).toEqual(["mcp_lookalike_tool"]);
  });

  it("wraps the manager's tools and keeps the wrapper of an unchanged tool", async () => {
    const session = new AgentSession();
    const one = fakeTool("mcp_a_one");
    session.refreshMCPTools([one]);
    const [wrapper] = session.registry.list();
    expect(wrapper).not.toBe(one);
    // A tool made by hand has no origin; the manager's tools have theirs (create-agent-session.test.ts).
    expect(wrapper).toMatchObject({ name: "mcp_a_one", label: "fake/mcp_a_one", origin: undefined });
    const result = await wrapper!.execute("call-1", {});
    expect(result.content).toEqual([{ type: "text", text: "mcp_a_one" }]);
    expect(one.calls).toBe(1);

    session.refreshMCPTools([one, fakeTool("mcp_a_two")]);
    expect(session.registry.list()[0]).toBe(wrapper);
  });

  it("replaces a tool whose object changed even when its name did not", () => {
    const session = new AgentSession();
    session.refreshMCPTools([fakeTool("mcp_a_one")]);
    const before = session.registry.list()[0];
    const replacement = fakeTool("mcp_a_one");
    session.refreshMCPTools([replacement]);
    const after = session.registry.list();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
    expect((after[0] as unknown as { wrapped: unknown }).wrapped).toBe(replacement);
  });

  it("lets a running call finish on its tool while the tools are replaced", async () => {
    const session = new AgentSession();
    const slow = fakeTool("mcp_a_slow", { manual: true });
    session.refreshMCPTools([slow]);
    const running = session.registry.list()[0]!.execute("call-1", {});
    await Promise.resolve();
    session.refreshMCPTools([fakeTool("mcp_b_other")]);
    expect(session.registry.list().map((tool) => tool.name)).toEqual(["mcp_b_other"]);
    slow.release("finished");
    await expect(running).resolves.toMatchObject({ content: [{ type: "text", text: "finished" }] });
  });

  it("skips an MCP tool whose name belongs to one of the agent's tools, with a warning", () => {
    const logger = recordingLogger();
    const session = new AgentSession({ logger });
    const own = fakeTool("mcp_a_one");
    session.registry.add(own);
    session.refreshMCPTools([fakeTool("mcp_a_one"), fakeTool("mcp_a_two")]);
    expect(session.registry.list()[0]).toBe(own);
    expect(session.mcpTools().map((tool) => tool.name)).toEqual(["mcp_a_two"]);
    expect(logger.warnings.join("\n")).toMatch(/mcp_a_one/);
  });

  it("dispose removes its MCP tools and leaves the agent's own", async () => {
    const session = new AgentSession();
    const own = fakeTool("bash");
    session.registry.add(own);
    session.registry.setActive(["bash"]);
    session.refreshMCPTools([fakeTool("mcp_a_one")]);
    await session.dispose();
    await session[Symbol.asyncDispose]();
    expect(session.registry.list()).toEqual([own]);
    expect(session.registry.active()).toEqual(["bash"]);
    expect(session.disposed).toBe(true);
  });
});
