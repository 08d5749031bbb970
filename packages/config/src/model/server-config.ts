import { z } from "../util/zod.js";

/** How a server authenticates: OAuth 2.1, or an API key kept in the auth storage. */
export type MCPAuthConfig =
  | {
      type: "oauth";
      /** Scopes to request (space-separated); by default the server's `WWW-Authenticate` scope, else its `scopes_supported`. */
      scope?: string | undefined;
      /** A pre-registered client id (skips dynamic client registration). */
      clientId?: string | undefined;
      /** The secret of a pre-registered confidential client; `${VAR}` and `!command` values are resolved at connect time. */
      clientSecret?: string | undefined;
      /** An `https:` URL of this client's metadata document, used as its client id where the server supports that. */
      clientMetadataUrl?: string | undefined;
      /** Port of the local OAuth callback on 127.0.0.1. @default a free port */
      callbackPort?: number | undefined;
    }
  | {
      type: "apikey";
      /** Key under which the secret is kept in `AuthStorage`. */
      credentialId: string;
    };

/** Fields every server config has, whatever its transport. */
export interface MCPServerCommon {
  /** `false` skips the server before any connection attempt. @default true */
  enabled?: boolean | undefined;
  /** Connect + `tools/list` limit in ms. @default 30000 */
  timeout?: number | undefined;
  /** Per-call limit in ms. */
  toolTimeout?: number | undefined;
  /** How the server authenticates. */
  auth?: MCPAuthConfig | undefined;
  /** Only these tools (original names) are exposed. */
  includeTools?: string[] | undefined;
  /** These tools (original names) are hidden; wins over `includeTools`. */
  excludeTools?: string[] | undefined;
  /**
   * `true` gives the model this server's tools on every request even when the
   * session's tool search is on, so they never need a search (`/mcp pin`
   * sets it). mcp-rt's own field: no other client's field maps onto it.
   * @default false
   */
  alwaysLoad?: boolean | undefined;
  /**
   * Which MCP era to speak: `"auto"` asks the server (`server/discover`)
   * and falls back to `initialize`; `"legacy"` goes straight to
   * `initialize` (2025-11-25 and before); `"2026-07-28"` speaks only that
   * revision and fails against a server that does not. mcp-rt's own field:
   * servers from other clients' files get `"auto"`.
   * @default "auto"
   */
  protocol?: MCPProtocolSetting | undefined;
  /**
   * What happens when this server's tools differ from the ones approved
   * before (a changed or new tool): `"ask"` holds them and asks the user,
   * `"hold"` holds them until reviewed, `"allow"` exposes and records them.
   * mcp-rt's own field; a project's file may only make it stricter than the
   * host's setting. @default the host's `toolChanges`
   */
  toolChanges?: MCPToolChangesPolicy | undefined;
  /**
   * What a strong sign of a poisoned definition does (tag characters, bidi
   * controls, instructions aimed at the model): `"hold"` keeps the tool from
   * the model until reviewed, `"warn"` only reports it. mcp-rt's own field; a
   * project's file may only make it stricter. @default the host's `poisoning`
   */
  poisoning?: MCPPoisoningPolicy | undefined;
}

/** The values of {@link MCPServerCommon.toolChanges}, strictest last. */
export const TOOL_CHANGES_POLICIES = ["allow", "ask", "hold"] as const;

/** What drifted tool definitions do: see {@link MCPServerCommon.toolChanges}. */
export type MCPToolChangesPolicy = (typeof TOOL_CHANGES_POLICIES)[number];

/** The values of {@link MCPServerCommon.poisoning}, strictest last. */
export const POISONING_POLICIES = ["warn", "hold"] as const;

/** What a strong sign of poisoning does: see {@link MCPServerCommon.poisoning}. */
export type MCPPoisoningPolicy = (typeof POISONING_POLICIES)[number];

/** The values of {@link MCPServerCommon.protocol}. */
export const PROTOCOL_SETTINGS = ["auto", "legacy", "2026-07-28"] as const;

/** Which MCP era a server is spoken to in: see {@link MCPServerCommon.protocol}. */
export type MCPProtocolSetting = (typeof PROTOCOL_SETTINGS)[number];

/** A local server, started as a child process and spoken to over stdio. */
export interface MCPStdioServerConfig extends MCPServerCommon {
  type?: "stdio" | undefined;
  /** The program to run. */
  command: string;
  /** Its arguments. */
  args?: string[] | undefined;
  /** Variables added to the (filtered) parent environment; `${VAR}` passes one of the agent's on purpose. */
  env?: Record<string, string> | undefined;
  /**
   * Names of the agent's environment variables the server gets even though
   * they look like secrets (`GITHUB_TOKEN`, `AWS_ACCESS_KEY_ID`…), which are
   * otherwise left out. mcp-rt's own field: no other client's is mapped here.
   * @default []
   */
  envPassthrough?: string[] | undefined;
  /** Working folder, relative to the agent's cwd. @default the agent's cwd */
  cwd?: string | undefined;
}

/** A remote server over Streamable HTTP (`http`) or SSE (`sse`); no `type` means HTTP with SSE fallback. */
export interface MCPHttpServerConfig extends MCPServerCommon {
  type?: "http" | "sse" | undefined;
  /** The server's endpoint, `http:` or `https:`. */
  url: string;
  /** Headers sent on every request. */
  headers?: Record<string, string> | undefined;
}

/** One MCP server's configuration, in mcp-rt's single shape. */
export type MCPServerConfig = MCPStdioServerConfig | MCPHttpServerConfig;

/** True when the config starts a local process. */
export function isStdioConfig(config: MCPServerConfig): config is MCPStdioServerConfig {
  return "command" in config && typeof config.command === "string";
}

// zod/mini (../util/zod.ts): a start builds these schemas and parses every config with them.
const positiveInt = z.int().check(z.positive());
const stringRecord = z.record(z.string(), z.string());
const nonEmpty = () => z.string().check(z.minLength(1));
/** What an environment variable name may look like. */
export const ENV_NAME: RegExp = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** zod schema of {@link MCPAuthConfig}. */
export const MCPAuthConfigSchema: z.ZodMiniType<MCPAuthConfig> = z.discriminatedUnion("type", [
  z
    .object({
      type: z.literal("oauth"),
      scope: z.optional(z.string()),
      clientId: z.optional(z.string()),
      clientSecret: z.optional(nonEmpty()),
      clientMetadataUrl: z.optional(
        z
          .url({ protocol: /^https$/ })
          .check(z.refine((url) => new URL(url).pathname !== "/", "must have a path")),
      ),
      callbackPort: z.optional(z.int().check(z.minimum(0), z.maximum(65535))),
    })
    .check(
      z.refine((auth) => auth.clientSecret === undefined || auth.clientId !== undefined, {
        path: ["clientSecret"],
        message: "needs auth.clientId",
      }),
    ),
  z.object({ type: z.literal("apikey"), credentialId: nonEmpty() }),
]);

const common = {
  enabled: z.optional(z.boolean()),
  timeout: z.optional(positiveInt),
  toolTimeout: z.optional(positiveInt),
  auth: z.optional(MCPAuthConfigSchema),
  includeTools: z.optional(z.array(z.string())),
  excludeTools: z.optional(z.array(z.string())),
  alwaysLoad: z.optional(z.boolean()),
  protocol: z.optional(z.enum(PROTOCOL_SETTINGS)),
  toolChanges: z.optional(z.enum(TOOL_CHANGES_POLICIES)),
  poisoning: z.optional(z.enum(POISONING_POLICIES)),
};

/** zod schema of {@link MCPStdioServerConfig}. */
export const MCPStdioServerConfigSchema: z.ZodMiniType<MCPStdioServerConfig> = z.object({
  ...common,
  type: z.optional(z.literal("stdio")),
  command: nonEmpty(),
  args: z.optional(z.array(z.string())),
  env: z.optional(stringRecord),
  envPassthrough: z.optional(
    z.array(z.string().check(z.regex(ENV_NAME, "must be an environment variable name"))),
  ),
  cwd: z.optional(z.string()),
});

/** zod schema of {@link MCPHttpServerConfig}. */
export const MCPHttpServerConfigSchema: z.ZodMiniType<MCPHttpServerConfig> = z.object({
  ...common,
  type: z.optional(z.enum(["http", "sse"])),
  url: z.url({ protocol: /^https?$/ }),
  headers: z.optional(stringRecord),
});

/** zod schema of {@link MCPServerConfig}. */
export const MCPServerConfigSchema: z.ZodMiniType<MCPServerConfig> = z.union([
  MCPStdioServerConfigSchema,
  MCPHttpServerConfigSchema,
]);
