import { createWindsurfSource } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

describe("Windsurf source", () => {
  it("maps serverUrl, disabled and disabledTools; reads .windsurf/mcp_config.json above the user's file", async () => {
    const tree = await fixture();
    const userFile = await tree.writeHome(".codeium/windsurf/mcp_config.json", {
      mcpServers: {
        remote: { serverUrl: "https://r.example.com/mcp", headers: { "X-Key": "k" } },
        legacy: { url: "https://l.example.com/sse" },
        git: {
          command: "uvx",
          args: ["mcp-server-git"],
          env: {},
          disabled: false,
          disabledTools: ["git_reset"],
        },
        off: { command: "off", disabled: true },
      },
    });
    await tree.writeProject(".windsurf/mcp_config.json", { mcpServers: { git: { command: "project-git" } } });
    const result = await tree.load({ sources: [createWindsurfSource()] });
    expect(result.errors).toEqual([]);
    expect(result.configs).toEqual({
      git: { command: "project-git" },
      remote: { url: "https://r.example.com/mcp", headers: { "X-Key": "k" } },
      legacy: { url: "https://l.example.com/sse" },
    });
    expect(result.disabled).toEqual([
      {
        name: "off",
        source: { provider: "windsurf", providerName: "Windsurf", path: userFile, level: "user" },
      },
    ]);
    expect(result.shadowed).toHaveLength(1);

    await tree.writeProject(".windsurf/mcp_config.json", {});
    const unshadowed = await tree.load({ sources: [createWindsurfSource()] });
    expect(unshadowed.configs.git).toEqual({
      command: "uvx",
      args: ["mcp-server-git"],
      env: {},
      enabled: true,
      excludeTools: ["git_reset"],
    });
  });
});
