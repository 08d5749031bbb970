import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ContenderModule } from "./contender.js";
import { rawSdkContender } from "./raw-sdk-runs.js";

/** The floor the targets are measured against: the SDK's v1 line, `@modelcontextprotocol/sdk`. */
export const rawSdk: ContenderModule = rawSdkContender({
  label: "raw SDK",
  defaultRequestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MSEC,
  async connect(server, cwd) {
    const client = new Client({ name: "bench-raw-sdk", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ ...server, cwd, stderr: "ignore" }));
    return {
      async listAllTools() {
        const tools: Tool[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listTools(cursor === undefined ? {} : { cursor });
          tools.push(...page.tools);
          cursor = page.nextCursor;
        } while (cursor !== undefined);
        return tools;
      },
      callTool: (params, options) => client.callTool(params, undefined, options),
      close: () => client.close(),
    };
  },
});
