import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import type { StartupResult, StartupTask, StdioServer, ToolCallsResult, ToolCallsTask } from "../tasks.js";
import {
  cpuTime,
  expectToolCount,
  heapMB,
  peakRssMB,
  processesLeft,
  since,
  watchEventLoop,
} from "./measure.js";
import { textOf, timeToolCalls } from "./tool-calls.js";

type LangChainTool = Awaited<ReturnType<MultiServerMCPClient["getTools"]>>[number];

function createClient(servers: Record<string, StdioServer>, cwd: string): MultiServerMCPClient {
  return new MultiServerMCPClient({
    mcpServers: Object.fromEntries(
      Object.entries(servers).map(([name, server]) => [
        name,
        { transport: "stdio" as const, ...server, cwd, stderr: "ignore" as const },
      ]),
    ),
    onConnectionError: "throw",
    useStandardContentBlocks: true,
  });
}

/**
 * What a developer would pick instead: `@langchain/mcp-adapters`'
 * `MultiServerMCPClient`, whose `getTools()` connects the servers and returns
 * LangChain tools ready for an agent.
 */
export async function startup(task: StartupTask): Promise<StartupResult> {
  const client = createClient(task.servers, task.cwd);
  const stall = watchEventLoop();
  const cpu = cpuTime();
  const start = performance.now();
  const tools = await client.getTools();
  const ms = since(start);
  const loopStallMs = stall();
  const cpuMs = cpu();
  const closeStart = performance.now();
  await client.close();
  const closeMs = since(closeStart);
  const left = processesLeft();
  expectToolCount("LangChain", tools.length, task.expectTools);
  return {
    kind: "startup",
    ms,
    loopStallMs,
    cpuMs,
    tools: tools.length,
    deferred: 0,
    peakRssMB: peakRssMB(),
    heap: heapMB(),
    closeMs,
    processesLeft: left,
  };
}

/** A tool's `invoke` answer: a string for one text block, else a block or an array of them. */
function answerText(answer: unknown): string {
  if (typeof answer === "string") return answer;
  const blocks = Array.isArray(answer) ? answer : [answer];
  return textOf(blocks as Array<{ type: string; text?: string }>);
}

/** Sequential `.invoke` calls of the LangChain tools `getTools()` returned (untimed). */
export async function toolCalls(task: ToolCallsTask): Promise<ToolCallsResult> {
  const client = createClient(task.servers, task.cwd);
  try {
    await client.getTools();
    const byServer = new Map<string, Map<string, LangChainTool>>();
    for (const name of Object.keys(task.servers)) {
      byServer.set(name, new Map((await client.getTools(name)).map((tool) => [tool.name, tool])));
    }
    return await timeToolCalls("LangChain", task, async (spec) => {
      const tool = byServer.get(spec.server)?.get(spec.tool);
      if (!tool) throw new Error(`LangChain: no tool ${spec.server}/${spec.tool}`);
      return answerText(await tool.invoke(spec.arguments));
    });
  } finally {
    await client.close();
  }
}
