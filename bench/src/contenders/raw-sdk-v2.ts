import { Client, DEFAULT_REQUEST_TIMEOUT_MSEC } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { ContenderModule } from "./load.js";
import { rawSdkContender } from "./raw-sdk-runs.js";

/** The SDK's v2 line, `@modelcontextprotocol/client`, beside the v1 floor (`raw-sdk.ts`). */
export const rawSdkV2: ContenderModule = rawSdkContender({
  label: "raw SDK v2",
  defaultRequestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MSEC,
  async connect(server, cwd) {
    const client = new Client({ name: "bench-raw-sdk-v2", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ ...server, cwd, stderr: "ignore" }));
    return {
      // v2's listTools() without a cursor walks every page itself; a fresh client each run, so
      // nothing comes from its response cache.
      listAllTools: async () => (await client.listTools()).tools,
      callTool: (params, options) => client.callTool(params, options),
      close: () => client.close(),
    };
  },
});
