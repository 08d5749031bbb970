import { createCursorSource } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

describe("Cursor source", () => {
  it("maps type/url/headers/envFile/auth and ranks .cursor/mcp.json above ~/.cursor/mcp.json", async () => {
    const tree = await fixture();
    await tree.writeProject(".env.mcp", "TOKEN=from-file\nLEVEL=file\n");
    const projectFile = await tree.writeProject(".cursor/mcp.json", {
      mcpServers: {
        local: {
          type: "stdio",
          command: "node",
          args: ["srv.js"],
          env: { LEVEL: "explicit" },
          envFile: ".env.mcp",
        },
        shared: { url: "https://project.example.com/mcp" },
      },
    });
    await tree.writeHome(".cursor/mcp.json", {
      mcpServers: {
        shared: { url: "https://user.example.com/mcp" },
        remote: {
          url: "https://remote.example.com/mcp",
          headers: { Authorization: "Bearer abc" },
          auth: { CLIENT_ID: "cid", CLIENT_SECRET: "secret", scopes: ["read"] },
        },
        streamed: { type: "streamable-http", url: "https://s.example.com/mcp" },
        events: { type: "sse", url: "https://e.example.com/sse" },
      },
    });
    const result = await tree.load({ sources: [createCursorSource()] });
    expect(result.errors).toEqual([]);
    expect(result.configs).toEqual({
      local: {
        type: "stdio",
        command: "node",
        args: ["srv.js"],
        env: { TOKEN: "from-file", LEVEL: "explicit" },
      },
      shared: { url: "https://project.example.com/mcp" },
      remote: {
        url: "https://remote.example.com/mcp",
        headers: { Authorization: "Bearer abc" },
        auth: { type: "oauth", clientId: "cid", clientSecret: "secret", scope: "read" },
      },
      streamed: { type: "http", url: "https://s.example.com/mcp" },
      events: { type: "sse", url: "https://e.example.com/sse" },
    });
    expect(result.sources.shared?.path).toBe(projectFile);
    expect(result.shadowed.map((entry) => entry.name)).toEqual(["shared"]);
  });

  it("makes a server whose envFile is missing an error, and loads the others", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(".cursor/mcp.json", {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Cursor's own placeholder
      mcpServers: { a: { command: "a", envFile: "${userHome}/nonexistent/.env" }, b: { command: "b" } },
    });
    const result = await tree.load();
    expect(Object.keys(result.configs)).toEqual(["b"]);
    expect(result.errors).toEqual([
      expect.objectContaining({ path: file, server: "a", code: "CONFIG_UNREADABLE" }),
    ]);
    expect(result.errors[0]?.message).toMatch(
      /^servers\.a\.envFile: cannot read \S+\/home\/nonexistent\/\.env \(it does not exist\); create it or fix the path in /,
    );
  });
});
