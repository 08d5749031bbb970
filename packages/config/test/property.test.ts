// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in config values are part of the generated input
import { rm } from "node:fs/promises";
import {
  type CapabilitySource,
  createAntigravitySource,
  createClaudeCodeSource,
  createClaudeDesktopSource,
  createCodexSource,
  createCursorSource,
  createGeminiSource,
  createNativeSource,
  createVsCodeSource,
  createWindsurfSource,
  type LoadConfigsResult,
  MCPServerConfigSchema,
  validateServerConfig,
} from "@mcp-rt/config";
import fc from "fast-check";
import { stringify as toToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { type FixtureTree, useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

/** Where a provider keeps a name → entry map, and how to write one there. */
interface Placement {
  label: string;
  source: () => CapabilitySource;
  write(tree: FixtureTree, servers: Record<string, unknown>): Promise<string>;
}

/** A provider's file under the home or project folder, holding the map under `key` (JSON) or as `wrap` makes it. */
function inFile(
  label: string,
  source: () => CapabilitySource,
  [folder, path]: ["home" | "project", string],
  wrap: (servers: Record<string, unknown>, tree: FixtureTree) => string | object = (servers) => ({
    mcpServers: servers,
  }),
): Placement {
  return {
    label,
    source,
    write: (tree, servers) =>
      folder === "home"
        ? tree.writeHome(path, wrap(servers, tree))
        : tree.writeProject(path, wrap(servers, tree)),
  };
}

const placements: Placement[] = [
  inFile("mcp-rt", createNativeSource, ["home", ".mcp-rt/mcp.json"]),
  inFile("Claude user", createClaudeCodeSource, ["home", ".claude.json"]),
  inFile("Claude local", createClaudeCodeSource, ["home", ".claude.json"], (s, t) => ({
    projects: { [t.project]: { mcpServers: s } },
  })),
  inFile("Claude project", createClaudeCodeSource, ["project", ".mcp.json"]),
  inFile("Claude Desktop", createClaudeDesktopSource, ["home", ".config/Claude/claude_desktop_config.json"]),
  inFile("Codex", createCodexSource, ["home", ".codex/config.toml"], (s) =>
    toToml({ mcp_servers: tomlable(s) }),
  ),
  inFile("Antigravity", createAntigravitySource, ["home", ".gemini/config/mcp_config.json"]),
  inFile("Gemini", createGeminiSource, ["project", ".gemini/settings.json"]),
  inFile("Cursor", createCursorSource, ["home", ".cursor/mcp.json"]),
  inFile("Windsurf", createWindsurfSource, ["home", ".codeium/windsurf/mcp_config.json"]),
  inFile("VS Code", createVsCodeSource, ["project", ".vscode/mcp.json"], (s) => ({ servers: s })),
];

// TOML has no null; everything else JSON has, it can say.
function tomlable(value: unknown): unknown {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.map(tomlable);
  if (typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, tomlable(v)]),
    );
  }
  return value;
}

const anyJson = fc.jsonValue({ maxDepth: 3 });
const text = fc.oneof(
  fc.constantFrom(
    "npx",
    "node",
    "",
    " ",
    "${SET}",
    "${UNSET}",
    "${UNSET:-fallback}",
    "https://mcp.exa.ai/mcp?exaApiKey=k",
  ),
  fc.string(),
);
const url = fc.oneof(
  fc.constantFrom(
    "https://example.com/mcp",
    "http://localhost:3000/sse",
    "ftp://example.com",
    "not a url",
    "https://${UNSET}/mcp",
    "https://mcp.exa.ai/mcp?exaApiKey=key",
  ),
  fc.webUrl(),
);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary, weight: 4 }, { arbitrary: anyJson, weight: 1 });

/** Entries that look like real configs of any provider, with any field possibly wrong. */
const plausibleEntry = fc.record(
  {
    type: maybe(fc.constantFrom("stdio", "http", "sse", "streamable-http", "ws")),
    command: maybe(text),
    args: maybe(fc.array(text, { maxLength: 4 })),
    env: maybe(fc.dictionary(fc.string(), text, { maxKeys: 3 })),
    envFile: maybe(fc.constantFrom("/nonexistent/.env", ".env")),
    cwd: maybe(text),
    url: maybe(url),
    httpUrl: maybe(url),
    serverUrl: maybe(url),
    headers: maybe(fc.dictionary(fc.string(), text, { maxKeys: 3 })),
    timeout: maybe(fc.integer({ min: -10, max: 3_000_000_000 })),
    toolTimeout: maybe(fc.integer()),
    startup_timeout_sec: maybe(fc.double({ noNaN: true, noDefaultInfinity: true })),
    enabled: maybe(fc.boolean()),
    disabled: maybe(fc.boolean()),
    includeTools: maybe(fc.array(fc.string(), { maxLength: 3 })),
    disabledTools: maybe(fc.array(fc.string(), { maxLength: 3 })),
    bearer_token_env_var: maybe(fc.constantFrom("SET", "UNSET")),
    auth: maybe(
      fc.constantFrom({ type: "oauth" }, { type: "apikey", credentialId: "k" }, { type: "apikey" }),
    ),
    oauth: maybe(fc.record({ enabled: fc.boolean(), clientId: text, scopes: fc.array(fc.string()) })),
  },
  { requiredKeys: [] },
);

/** Mostly well-formed local servers, so that many entries get all the way to `configs`. */
const localEntry = fc.record(
  {
    command: fc.constantFrom("npx", "node", "uvx", "${SET}"),
    args: fc.array(text, { maxLength: 3 }),
    env: fc.dictionary(fc.string(), text, { maxKeys: 2 }),
    enabled: fc.boolean(),
    disabled: fc.boolean(),
  },
  { requiredKeys: ["command"] },
);

/** Mostly well-formed remote servers, under each provider's name for the URL. */
const remoteEntry = fc
  .tuple(
    fc.constantFrom("url", "httpUrl", "serverUrl"),
    url,
    fc.dictionary(fc.string(), text, { maxKeys: 2 }),
  )
  .map(([key, value, headers]) => ({ [key]: value, headers }));

const entry = fc.oneof(
  { arbitrary: anyJson, weight: 2 },
  { arbitrary: plausibleEntry, weight: 2 },
  { arbitrary: localEntry, weight: 3 },
  { arbitrary: remoteEntry, weight: 3 },
);
const serverMap = fc.dictionary(fc.string({ maxLength: 12 }), entry, { maxKeys: 6 });

function bucketsOf(result: LoadConfigsResult, name: string): number {
  return (
    Object.keys(result.configs).filter((key) => key === name).length +
    result.errors.filter((issue) => issue.server === name).length +
    result.disabled.filter((item) => item.name === name).length +
    result.filtered.filter((item) => item.name === name).length
  );
}

describe("property: any JSON value as a server entry", () => {
  it("never throws, and every entry lands in exactly one of configs, errors, disabled, filtered", async () => {
    const tree = await fixture();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...placements), serverMap, async (placement, servers) => {
        const file = await placement.write(tree, servers);
        try {
          const result = await tree.load({ sources: [placement.source()], env: { SET: "value" } });
          expect(result.shadowed).toEqual([]);
          for (const issue of result.errors) expect(issue.server, issue.message).toBeTypeOf("string");
          const names = Object.keys(servers);
          for (const name of names) expect(bucketsOf(result, name), `${placement.label}: ${name}`).toBe(1);
          expect(
            Object.keys(result.configs).length +
              result.errors.length +
              result.disabled.length +
              result.filtered.length,
          ).toBe(names.length);
          for (const [name, config] of Object.entries(result.configs)) {
            expect(validateServerConfig(name, config)).toEqual([]);
            expect(result.sources[name]?.path).toBe(file);
          }
        } finally {
          await rm(file, { force: true });
        }
      }),
      { numRuns: 2000 },
    );
  }, 120_000);
});

describe("property: validateServerConfig", () => {
  it("never throws, and [] means the config satisfies MCPServerConfigSchema", () => {
    fc.assert(
      fc.property(fc.string(), entry, (name, config) => {
        const messages = validateServerConfig(name, config);
        expect(Array.isArray(messages)).toBe(true);
        for (const message of messages) expect(message).toMatch(/^servers(\.|\[)/);
        if (messages.length === 0) expect(MCPServerConfigSchema.safeParse(config).success).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
