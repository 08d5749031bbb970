import {
  Client,
  DEFAULT_REQUEST_TIMEOUT_MSEC,
  type VersionNegotiationMode,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { ContenderModule } from "./contender.js";
import { rawSdkContender } from "./raw-sdk-runs.js";

/** The SDK's v2 line, `@modelcontextprotocol/client`, connecting in `mode` (its default is `"legacy"`). */
function rawSdkV2Line(label: string, mode: VersionNegotiationMode): ContenderModule {
  return rawSdkContender({
    label,
    defaultRequestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MSEC,
    async connect(server, cwd) {
      const client = new Client(
        { name: "bench-raw-sdk-v2", version: "1.0.0" },
        { versionNegotiation: { mode } },
      );
      const { command, args, env } = server;
      await client.connect(
        new StdioClientTransport({ command, args, ...(env ? { env } : {}), cwd, stderr: "ignore" }),
      );
      return {
        // v2's listTools() without a cursor walks every page itself; a fresh client each run, so
        // nothing comes from its response cache.
        listAllTools: async () => (await client.listTools()).tools,
        callTool: (params, options) => client.callTool(params, options),
        close: () => client.close(),
      };
    },
  });
}

/** The SDK's v2 line beside the v1 floor (`raw-sdk.ts`), on the 2025 wire as v1. */
export const rawSdkV2: ContenderModule = rawSdkV2Line("raw SDK v2", "legacy");

/**
 * The SDK's v2 line finding each server's era itself (`'auto'`): on stdio its
 * probe runs in a sibling process spawned from the same command and reaped
 * once the era is known, so each connect starts the server twice.
 */
export const rawSdkV2Auto: ContenderModule = rawSdkV2Line("raw SDK v2 (auto)", "auto");
