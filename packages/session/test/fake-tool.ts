import type { CustomTool, ToolResult } from "@mcp-rt/manager";

/** A tool whose calls finish only when the test says so. */
export interface FakeTool extends CustomTool {
  calls: number;
  release(text: string): void;
}

export function fakeTool(name: string, options: { manual?: boolean } = {}): FakeTool {
  const waiting: Array<(text: string) => void> = [];
  const tool: FakeTool = {
    name,
    label: `fake/${name}`,
    description: `fake ${name}`,
    parameters: { type: "object" },
    calls: 0,
    release(text) {
      for (const resolve of waiting.splice(0)) resolve(text);
    },
    async execute(): Promise<ToolResult> {
      tool.calls += 1;
      const text = options.manual ? await new Promise<string>((resolve) => waiting.push(resolve)) : name;
      return {
        content: [{ type: "text", text }],
        details: { serverName: "fake", mcpToolName: name, isError: false, rawContent: [] },
      };
    },
  };
  return tool;
}
