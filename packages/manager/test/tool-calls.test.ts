import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { MCPToolCache } from "@mcp-rt/cache";
import type { MCPStdioServerConfig } from "@mcp-rt/config";
import { hugeOutputServer, slowCallServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import type { ToolResult } from "../src/index.js";
import { textOf, useManagers } from "./helpers.js";

const cwd = process.cwd();
const everythingDir = dirname(
  createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json"),
);
const everything: MCPStdioServerConfig = {
  command: process.execPath,
  args: [join(everythingDir, "dist", "index.js"), "stdio"],
  timeout: 20_000,
};

const manager = useManagers();

describe("calls against server-everything", () => {
  it("keeps images, summarises resource links and structured content, keeps the raw result", async () => {
    const m = manager();
    const { tools, errors } = await m.connectServers({ everything }, {});
    expect(errors.size).toBe(0);
    const tool = (name: string) => tools.find((t) => t.name === name)!;

    const image = await tool("mcp_everything_get_tiny_image").execute("c1", {});
    expect(
      image.content.some((b) => b.type === "image" && b.mimeType === "image/png" && b.data.length > 0),
    ).toBe(true);

    const links = await tool("mcp_everything_get_resource_links").execute("c2", { count: 2 });
    expect(textOf(links)).toMatch(/\[resource link \S+/);
    expect(
      (links.details.rawContent as { content: Array<{ type: string }> }).content.map((b) => b.type),
    ).toContain("resource_link");

    const structured = await tool("mcp_everything_get_structured_content").execute("c3", {
      location: "New York",
    });
    expect(structured.isError).toBeUndefined();
    expect(textOf(structured)).toMatch(/temperature/);
    // The server mirrors structuredContent in a text block: it is not repeated.
    expect(structured.content).toHaveLength(1);
    expect(structured.details).toMatchObject({
      serverName: "everything",
      mcpToolName: "get-structured-content",
    });
  });

  it("describes embedded resources, keeps annotated content, marks a failed call", async () => {
    const m = manager();
    const { tools } = await m.connectServers({ everything }, {});
    const tool = (name: string) => tools.find((t) => t.name === name)!;

    const text = await tool("mcp_everything_get_resource_reference").execute("c1", {
      resourceType: "Text",
      resourceId: 1,
    });
    expect(textOf(text)).toMatch(/^\[resource demo:\/\/\S+\/text\/1 \(text\/plain\)\]\nResource 1: /m);
    const blob = await tool("mcp_everything_get_resource_reference").execute("c2", {
      resourceType: "Blob",
      resourceId: 2,
    });
    expect(textOf(blob)).toMatch(/\[resource demo:\/\/\S+\/blob\/2 \(text\/plain\)\] binary, \d+ B/);

    const annotated = await tool("mcp_everything_get_annotated_message").execute("c3", {
      messageType: "error",
      includeImage: true,
    });
    expect(annotated.content.map((b) => b.type)).toEqual(["text", "image"]);
    expect(textOf(annotated)).toMatch(/^Error: /);

    const failed = await tool("mcp_everything_get_sum").execute("c4", { a: 1, b: "two" });
    expect(failed.isError).toBe(true);
    expect(failed.details.isError).toBe(true);
    expect(textOf(failed)).toMatch(/expected number/);
  });
});

describe("calls against fixtures", () => {
  it("cuts text past resultCharLimit and says how much", async () => {
    const m = manager({ resultCharLimit: 1000 });
    const { tools } = await m.connectServers({ big: hugeOutputServer() }, {});
    const out = await tools.find((t) => t.name === "mcp_big_huge")!.execute("c", { bytes: 5000 });
    expect(out.content[0]).toMatchObject({ type: "text" });
    expect((out.content[0] as { text: string }).text).toHaveLength(1000);
    expect(textOf(out)).toMatch(/4000 of 5000 characters cut/);
  });

  it("passes progress to onUpdate", async () => {
    const m = manager();
    const { tools } = await m.connectServers({ slow: slowCallServer() }, {});
    const updates: ToolResult[] = [];
    const out = await tools
      .find((t) => t.name === "mcp_slow_slow")!
      .execute("c", { ms: 300, steps: 3 }, undefined, (partial) => updates.push(partial));
    expect(textOf(out)).toMatch(/slow done/);
    // The SDK handles notifications a tick after responses, so the last step can arrive after the result.
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.map(textOf).slice(0, 2)).toEqual(["step 1 of 3 (1/3)", "step 2 of 3 (2/3)"]);
    expect(updates[0]!.details).toMatchObject({ serverName: "slow", mcpToolName: "slow", isError: false });
  });

  it("an abort during a running call rejects with AbortError", async () => {
    const m = manager();
    const { tools } = await m.connectServers({ slow: slowCallServer() }, {});
    const started = performance.now();
    await expect(
      tools
        .find((t) => t.name === "mcp_slow_slow")!
        .execute("c", { ms: 5000, steps: 5 }, AbortSignal.timeout(200)),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it("connects with the resolved config; the connection and the cache keep the unresolved one", async () => {
    const cache = new MCPToolCache(new Map());
    const config: MCPStdioServerConfig = {
      ...everything,
      env: { MCP_RT_TEST_VALUE: "!echo resolved-value" },
    };
    const m = manager({ cache });
    const { tools } = await m.connectServers({ env: config }, {});
    // The server saw the command's output…
    const env = await tools.find((t) => t.name === "mcp_env_get_env")!.execute("c", {});
    expect(textOf(env)).toContain('"MCP_RT_TEST_VALUE": "resolved-value"');
    // …while the connection and the cache only know the command.
    const connection = await m.waitForConnection("env");
    expect((connection.config as MCPStdioServerConfig).env).toEqual({
      MCP_RT_TEST_VALUE: "!echo resolved-value",
    });
    await m.disconnectAll();
    expect((await cache.get({ serverName: "env", config, cwd }))?.map((t) => t.name)).toContain("get-env");
  });
});
