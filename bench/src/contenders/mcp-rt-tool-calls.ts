import { MCPManager, type MCPServerConfig } from "@mcp-rt/manager";
import type { ToolCallsResult, ToolCallsTask } from "../tasks.js";
import { textOf, timeToolCalls } from "./tool-calls.js";

/**
 * Sequential `MCPTool.execute` calls of several tools on several servers: the
 * tools the agent gets, looked up by label (`server/tool`) once every server
 * is live (connecting is untimed; no cache, so no deferred tool is called).
 */
export async function toolCalls(task: ToolCallsTask): Promise<ToolCallsResult> {
  const manager = new MCPManager(task.cwd, { cache: null });
  try {
    const configs: Record<string, MCPServerConfig> = task.servers;
    await manager.connectServers(configs);
    await Promise.all(Object.keys(configs).map((name) => manager.waitForConnection(name)));
    const tools = new Map(manager.getTools().map((tool) => [tool.label, tool]));
    let id = 0;
    return await timeToolCalls("mcp-rt", task, async (spec) => {
      const tool = tools.get(`${spec.server}/${spec.tool}`);
      if (!tool) throw new Error(`mcp-rt: no tool ${spec.server}/${spec.tool}`);
      const answer = await tool.execute(`call-${++id}`, spec.arguments);
      if (answer.isError)
        throw new Error(`mcp-rt: ${spec.server}/${spec.tool} failed: ${textOf(answer.content)}`);
      return textOf(answer.content);
    });
  } finally {
    await manager.disconnectAll();
  }
}
