import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import type { StartupResult, StartupTask } from "../tasks.js";
import { expectToolCount, peakRssMB, processesLeft, since, watchEventLoop } from "./measure.js";

/**
 * What a developer would pick instead: `@langchain/mcp-adapters`'
 * `MultiServerMCPClient`, whose `getTools()` connects the servers and returns
 * LangChain tools ready for an agent.
 */
export async function startup(task: StartupTask): Promise<StartupResult> {
  const client = new MultiServerMCPClient({
    mcpServers: Object.fromEntries(
      Object.entries(task.servers).map(([name, server]) => [
        name,
        { transport: "stdio" as const, ...server, cwd: task.cwd, stderr: "ignore" as const },
      ]),
    ),
    onConnectionError: "throw",
    useStandardContentBlocks: true,
  });
  const stall = watchEventLoop();
  const start = performance.now();
  const tools = await client.getTools();
  const ms = since(start);
  const loopStallMs = stall();
  const closeStart = performance.now();
  await client.close();
  const closeMs = since(closeStart);
  const left = processesLeft();
  expectToolCount("LangChain", tools.length, task.expectTools);
  return {
    kind: "startup",
    ms,
    loopStallMs,
    tools: tools.length,
    deferred: 0,
    peakRssMB: peakRssMB(),
    closeMs,
    processesLeft: left,
  };
}
