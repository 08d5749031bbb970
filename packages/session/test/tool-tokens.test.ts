import type { CustomTool } from "@mcp-rt/manager";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../src/agent-session.js";
import { countToolTokens, formatTokens, modelToolDefinition } from "../src/tool-tokens.js";
import { fakeTool } from "./fake-tool.js";

/** A tool of `server` with a known definition. */
function defined(server: string, name: string, description: string, parameters: object): CustomTool {
  return { ...fakeTool(`mcp_${server}_${name}`), label: `${server}/${name}`, description, parameters };
}

const echo = defined("demo", "echo", "Echoes back the input string", {
  type: "object",
  properties: { message: { type: "string", description: "Message to echo" } },
  required: ["message"],
});
const sum = defined("demo", "get_sum", "Returns the sum of two numbers", {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "number" } },
  required: ["a", "b"],
});
const ping = defined("x", "ping", "", { type: "object" });

describe("tool definition tokens", () => {
  it("counts the definition exactly as a request sends it, with the o200k tokenizer", () => {
    expect(modelToolDefinition(echo)).toEqual({
      type: "function",
      function: { name: "mcp_demo_echo", description: echo.description, parameters: echo.parameters },
    });
    // Fixed o200k counts of the JSON text of these three definitions.
    expect(countToolTokens(echo)).toBe(50);
    expect(countToolTokens(sum)).toBe(54);
    expect(countToolTokens(ping)).toBe(23);
  });

  it("counts a tool again when what is sent changed", () => {
    const tool = defined("demo", "echo", "Echoes back the input string", echo.parameters);
    expect(countToolTokens(tool)).toBe(50);
    tool.description = "Echoes back the input string, unchanged, as text";
    expect(countToolTokens(tool)).toBeGreaterThan(50);
    tool.parameters = { type: "object" };
    expect(countToolTokens(tool)).toBeLessThan(50);
  });

  it("session.toolTokens() sums the active MCP tools per server, leaving the agent's own tools out", () => {
    const session = new AgentSession();
    session.registry.add(fakeTool("bash"));
    session.registry.setActive(["bash"]);
    session.refreshMCPTools([echo, sum, ping]);
    expect(session.toolTokens()).toEqual({
      total: 127,
      servers: { demo: { tools: 2, tokens: 104 }, x: { tools: 1, tokens: 23 } },
    });
    session.registry.setActive(["bash", "mcp_demo_echo", "mcp_x_ping"]);
    expect(session.toolTokens()).toEqual({
      total: 73,
      servers: { demo: { tools: 1, tokens: 50 }, x: { tools: 1, tokens: 23 } },
    });
  });

  it("formats counts as a person reads them", () => {
    expect([850, 1000, 9849, 10_000, 99_949, 142_300].map(formatTokens)).toEqual([
      "~850",
      "~1k",
      "~9.8k",
      "~10k",
      "~99.9k",
      "~142k",
    ]);
  });
});
