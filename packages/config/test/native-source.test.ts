import { createNativeSource } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

describe("native (mcp-rt) source", () => {
  it("reads both files in mcp-rt's own shape, project first, and drops unknown fields", async () => {
    const tree = await fixture();
    const projectFile = await tree.writeProject(".mcp-rt/mcp.json", {
      mcpServers: {
        lint: {
          type: "stdio",
          command: "npx",
          args: ["-y", "lint-mcp"],
          env: { LEVEL: "strict" },
          cwd: "tools",
          timeout: 5000,
          toolTimeout: 60000,
          includeTools: ["lint"],
          excludeTools: ["fix"],
          description: "kept in the file, not in the config",
        },
        shared: { command: "project-wins" },
      },
    });
    const userFile = await tree.writeHome(".mcp-rt/mcp.json", {
      mcpServers: {
        docs: {
          type: "http",
          url: "https://docs.example.com/mcp",
          headers: { "X-Team": "core" },
          auth: { type: "oauth", scope: "read", clientId: "abc", callbackPort: 8123 },
        },
        vault: {
          url: "https://vault.example.com/sse",
          type: "sse",
          auth: { type: "apikey", credentialId: "vault" },
        },
        shared: { command: "user-loses" },
      },
    });
    const result = await tree.load({ sources: [createNativeSource()] });
    expect(result.errors).toEqual([]);
    expect(result.configs).toEqual({
      lint: {
        type: "stdio",
        command: "npx",
        args: ["-y", "lint-mcp"],
        env: { LEVEL: "strict" },
        cwd: "tools",
        timeout: 5000,
        toolTimeout: 60000,
        includeTools: ["lint"],
        excludeTools: ["fix"],
      },
      shared: { command: "project-wins" },
      docs: {
        type: "http",
        url: "https://docs.example.com/mcp",
        headers: { "X-Team": "core" },
        auth: { type: "oauth", scope: "read", clientId: "abc", callbackPort: 8123 },
      },
      vault: {
        type: "sse",
        url: "https://vault.example.com/sse",
        auth: { type: "apikey", credentialId: "vault" },
      },
    });
    expect(result.sources.lint).toEqual({
      provider: "mcp-rt",
      providerName: "mcp-rt",
      path: projectFile,
      level: "project",
    });
    expect(result.sources.docs).toEqual({
      provider: "mcp-rt",
      providerName: "mcp-rt",
      path: userFile,
      level: "user",
    });
    expect(result.shadowed).toEqual([
      { name: "shared", source: result.sources.docs, by: result.sources.lint },
    ]);
  });

  it("disabledServers turns off a server defined in another client's file", async () => {
    const tree = await fixture();
    await tree.writeHome(".mcp-rt/mcp.json", { disabledServers: ["noisy"] });
    const cursorFile = await tree.writeHome(".cursor/mcp.json", {
      mcpServers: { noisy: { command: "noisy-mcp" }, quiet: { command: "quiet-mcp" } },
    });
    const result = await tree.load();
    expect(Object.keys(result.configs)).toEqual(["quiet"]);
    expect(result.disabled).toEqual([
      {
        name: "noisy",
        source: { provider: "cursor", providerName: "Cursor", path: cursorFile, level: "user" },
      },
    ]);
  });

  it("reports a disabledServers that is not a list of names", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(".mcp-rt/mcp.json", {
      mcpServers: { a: { command: "a" } },
      disabledServers: "a",
    });
    const result = await tree.load();
    expect(result.configs).toEqual({ a: { command: "a" } });
    expect(result.errors).toEqual([
      {
        path: file,
        code: "CONFIG_INVALID",
        message: `${file}: "disabledServers" must be an array of server names, got "a"`,
      },
    ]);
  });

  it("alwaysLoad on an entry and alwaysLoadServers mark servers alwaysLoad; other clients' alwaysLoad maps to nothing", async () => {
    const tree = await fixture();
    await tree.writeHome(".mcp-rt/mcp.json", {
      mcpServers: { own: { command: "own-mcp", alwaysLoad: true } },
      alwaysLoadServers: ["pinned", "not-defined-anywhere"],
    });
    await tree.writeHome(".cursor/mcp.json", {
      mcpServers: { pinned: { command: "pinned-mcp" }, other: { command: "other-mcp", alwaysLoad: true } },
    });
    const result = await tree.load();
    expect(result.configs).toEqual({
      own: { command: "own-mcp", alwaysLoad: true },
      pinned: { command: "pinned-mcp", alwaysLoad: true },
      other: { command: "other-mcp" },
    });
    expect(result.errors).toEqual([]);
  });

  it("reports an alwaysLoadServers that is not a list of names", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(".mcp-rt/mcp.json", { mcpServers: {}, alwaysLoadServers: [1] });
    const result = await tree.load();
    expect(result.errors).toEqual([
      {
        path: file,
        code: "CONFIG_INVALID",
        message: `${file}: "alwaysLoadServers" must be an array of server names, got [1]`,
      },
    ]);
  });

  it("keeps envPassthrough from mcp-rt's own file; no other client's entry maps onto it", async () => {
    const tree = await fixture();
    await tree.writeHome(".mcp-rt/mcp.json", {
      mcpServers: { github: { command: "gh-mcp", envPassthrough: ["GITHUB_TOKEN"] } },
    });
    await tree.writeProject(".mcp.json", {
      mcpServers: { other: { command: "other", envPassthrough: ["AWS_SECRET_ACCESS_KEY"] } },
    });
    const result = await tree.load({ trust: "all" });
    expect(result.configs.github).toEqual({ command: "gh-mcp", envPassthrough: ["GITHUB_TOKEN"] });
    expect(result.configs.other).toEqual({ command: "other" });
  });
});
