import {
  DEFAULT_TOOL_LIMITS,
  listTools,
  type MCPServerConnection,
  type ToolLimitBreach,
  type ToolLimits,
} from "@mcp-rt/client";
import { fixtureServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { useConnections } from "./helpers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

const { connect } = useConnections();

/** Lists with `limits`, collecting what `onLimit` hears. */
async function listWithBreaches(connection: MCPServerConnection, limits?: ToolLimits) {
  const breaches: ToolLimitBreach[] = [];
  const tools = await listTools(connection, {
    ...(limits ? { limits } : {}),
    onLimit: (breach) => breaches.push(breach),
  });
  return { tools, breaches };
}

describe("listTools bounds a hostile server's tool list", () => {
  it("keeps the first 2000 tools and says so once, naming the server and the limit", async () => {
    expect(DEFAULT_TOOL_LIMITS.maxTools).toBe(2000);
    const connection = await connect({
      name: "flood",
      config: fixtureServer({ tools: 5000, pageSize: 1000 }),
    });
    const { tools, breaches } = await listWithBreaches(connection);
    expect(tools).toHaveLength(2000);
    expect(tools.at(-1)?.name).toBe("tool_1998");
    expect(breaches).toEqual([
      {
        limit: "maxTools",
        tools: expect.any(Number),
        message:
          'MCP server "flood" lists more than 2000 tools; kept the first 2000 and dropped the rest (limit maxTools)',
      },
    ]);
    expect((await listTools(connection, { limits: { maxTools: 10 } })).map((tool) => tool.name)).toHaveLength(
      10,
    );
  });

  it("cuts descriptions past 4096 characters, with a note at the end", async () => {
    const connection = await connect({
      name: "wordy",
      config: fixtureServer({ tools: 3, descriptionChars: 100_000 }),
    });
    const { tools, breaches } = await listWithBreaches(connection);
    for (const tool of tools) {
      expect(tool.description?.length).toBeLessThanOrEqual(4096);
      expect(tool.description).toMatch(/\[cut by mcp-rt: 100000 characters, the first 4096 kept\]$/);
    }
    expect(breaches.map((breach) => [breach.limit, breach.tools])).toEqual([["maxDescriptionLength", 4]]);
    expect(breaches[0]?.message).toContain('MCP server "wordy" lists 4 tool description(s) longer than 4096');
    const short = await listTools(connection, { limits: { maxDescriptionLength: 100 } });
    expect(short[0]?.description).toHaveLength(100);
  });

  it("replaces a 20000-deep input schema (which JSON.stringify cannot write) with an empty one, and says why", async () => {
    const connection = await connect({ name: "deep", config: fixtureServer({ schemaDepth: 20_000 }) });
    const { tools, breaches } = await listWithBreaches(connection);
    const deep = tools.find((tool) => tool.name === "deep");
    expect(deep?.inputSchema).toEqual({ type: "object" });
    expect(deep?.description).toContain(
      "[mcp-rt: the server's input schema was removed because it nests deeper than 64 levels",
    );
    expect(() => JSON.stringify(tools)).not.toThrow();
    expect(breaches.map((breach) => breach.limit)).toEqual(["maxSchemaDepth"]);
    expect(breaches[0]?.message).toContain('MCP server "deep" lists schemas nested deeper than 64 levels');
    const echo = tools.find((tool) => tool.name === "echo");
    expect(echo?.inputSchema).toMatchObject({ properties: { message: { type: "string" } } });
  });

  it("replaces a schema larger than maxSchemaSize", async () => {
    const connection = await connect({ name: "big", config: fixtureServer({}) });
    const [echo] = await listTools(connection, { limits: { maxSchemaSize: 20 } });
    expect(echo?.inputSchema).toEqual({ type: "object" });
    expect(echo?.description).toContain("it is larger than 20 characters");
  });

  it("drops a tool whose name is longer than 128 characters before it is named", async () => {
    const connection = await connect({ name: "named", config: fixtureServer({ longToolName: 100_000 }) });
    const { tools, breaches } = await listWithBreaches(connection);
    expect(tools.map((tool) => tool.name)).toEqual(["echo"]);
    expect(breaches).toHaveLength(1);
    expect(breaches[0]?.message).toMatch(
      /^MCP server "named" lists 1 tool\(s\) with a name longer than 128 characters; dropped them \(limit maxToolNameLength\): "long_name_n+…"$/,
    );
  });

  it("refuses a limit that is not a positive number", async () => {
    const connection = await connect({ name: "odd", config: fixtureServer({}) });
    await expect(listTools(connection, { limits: { maxTools: 0 } })).rejects.toThrow(
      "toolLimits.maxTools must be a positive number, got 0",
    );
  });
});
