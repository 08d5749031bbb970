import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createServerEnv } from "@mcp-rt/client/light";
import {
  Client,
  DEFAULT_REQUEST_TIMEOUT_MSEC,
  type RequestOptions,
  type Tool,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type {
  CallsResult,
  CallsTask,
  ReloadResult,
  ReloadTask,
  StartupResult,
  StartupTask,
  StdioServer,
  ToolCallsResult,
  ToolCallsTask,
} from "../tasks.js";
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

/**
 * The floor on the SDK's v2 line: `@modelcontextprotocol/client`'s `Client`
 * over its `StdioClientTransport`, one per server, `Promise.all` over the
 * servers, every `tools/list` page (v2's `listTools()` without a cursor walks
 * them itself). Beside the v1 floor (`raw-sdk.ts`), which the targets are
 * measured against.
 */
interface Connected {
  name: string;
  client: Client;
  tools: Tool[];
  /** From the start of `connectAll` until this server's tools were listed. */
  ms: number;
}

async function listAllTools(client: Client): Promise<Tool[]> {
  // A fresh client each run: nothing comes from its response cache.
  return (await client.listTools()).tools;
}

async function connect(server: StdioServer, cwd: string): Promise<Client> {
  const client = new Client({ name: "bench-raw-sdk-v2", version: "1.0.0" });
  // stderr ignored: the cheapest choice, as befits the floor.
  const transport = new StdioClientTransport({ ...server, cwd, stderr: "ignore" });
  await client.connect(transport);
  return client;
}

async function connectAll(servers: Record<string, StdioServer>, cwd: string): Promise<Connected[]> {
  const start = performance.now();
  const settled = await Promise.allSettled(
    Object.entries(servers).map(async ([name, server]) => {
      const client = await connect(server, cwd);
      const tools = await listAllTools(client);
      return { name, client, tools, ms: since(start) };
    }),
  );
  const failed = settled.find((outcome) => outcome.status === "rejected");
  if (failed) {
    await closeAll(settled.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : [])));
    throw failed.reason;
  }
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<Connected>).value);
}

async function closeAll(connected: Connected[]): Promise<void> {
  await Promise.allSettled(connected.map(({ client }) => client.close()));
}

/** Connect + list every server in parallel. */
export async function startup(task: StartupTask): Promise<StartupResult> {
  let servers = task.serverInOwnSession ? inAllOwnSessions(task.servers) : task.servers;
  if (task.serverWithHostEnv) servers = withHostEnv(servers);
  const stall = watchEventLoop();
  const cpu = cpuTime();
  const start = performance.now();
  const connected = await connectAll(servers, task.cwd);
  const ms = since(start);
  const loopStallMs = stall();
  const cpuMs = cpu();
  const tools = connected.reduce((sum, { tools }) => sum + tools.length, 0);
  const closeStart = performance.now();
  await closeAll(connected);
  const closeMs = since(closeStart);
  const left = processesLeft();
  expectToolCount("raw SDK v2", tools, task.expectTools);
  return {
    kind: "startup",
    ms,
    loopStallMs,
    cpuMs,
    tools,
    deferred: 0,
    peakRssMB: peakRssMB(),
    heap: heapMB(),
    closeMs,
    processesLeft: left,
    perServerMs: Object.fromEntries(connected.map(({ name, ms }) => [name, ms])),
  };
}

/** Sequential `client.callTool` calls of several tools on several servers, connected (untimed) first. */
export async function toolCalls(task: ToolCallsTask): Promise<ToolCallsResult> {
  const servers = task.serverInOwnSession ? inAllOwnSessions(task.servers) : task.servers;
  const connected = await connectAll(servers, task.cwd);
  try {
    const clients = new Map(connected.map(({ name, client }) => [name, client]));
    return await timeToolCalls("raw SDK v2", task, async (spec) => {
      const client = clients.get(spec.server);
      if (!client) throw new Error(`raw SDK v2: no server "${spec.server}"`);
      const answer = await client.callTool({ name: spec.tool, arguments: spec.arguments });
      const content = answer.content as Array<{ type: string; text?: string }>;
      if (answer.isError)
        throw new Error(`raw SDK v2: ${spec.server}/${spec.tool} failed: ${textOf(content)}`);
      return textOf(content);
    });
  } finally {
    await closeAll(connected);
  }
}

/** The server started through `setsid`, in a session of its own as mcp-rt starts every stdio server. */
function inOwnSession(server: StdioServer): StdioServer {
  return { ...server, command: "setsid", args: [server.command, ...server.args] };
}

/** Every server given the host's environment (less what looks secret) under its own `env`, as mcp-rt gives it (diagnostic). */
function withHostEnv(servers: Record<string, StdioServer>): Record<string, StdioServer> {
  return Object.fromEntries(
    Object.entries(servers).map(([name, server]) => [
      name,
      {
        ...server,
        env: createServerEnv({ parent: process.env, ...(server.env ? { env: server.env } : {}) }),
      },
    ]),
  );
}

function inAllOwnSessions(servers: Record<string, StdioServer>): Record<string, StdioServer> {
  return Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, inOwnSession(server)]));
}

/** Sequential `client.callTool` calls. */
export async function calls(task: CallsTask): Promise<CallsResult> {
  const server = task.serverInOwnSession ? inOwnSession(task.server) : task.server;
  const client = await connect(server, task.cwd);
  // Listed first, as an agent must before it can call a tool, and as mcp-rt's contender is: the SDK's
  // parsing code then runs its calls in the state a listing leaves it in (README.md, "Counting instructions").
  await listAllTools(client);
  // What mcp-rt's callTool asked of the SDK before it asked for progress itself: each notification restarting the limit.
  const options: RequestOptions | undefined = task.askForProgress
    ? {
        onprogress: () => {},
        resetTimeoutOnProgress: true,
        timeout: DEFAULT_REQUEST_TIMEOUT_MSEC,
        maxTotalTimeout: DEFAULT_REQUEST_TIMEOUT_MSEC * 10,
      }
    : undefined;
  try {
    const call = async (i: number): Promise<void> => {
      const message = `message ${i}`;
      const params = task.sendProgressToken
        ? { name: "echo", arguments: { message }, _meta: { progressToken: i } }
        : { name: "echo", arguments: { message } };
      const answer = await client.callTool(params, options);
      const content = answer.content as Array<{ type: string; text?: string }>;
      const first = content[0];
      if (answer.isError || first?.type !== "text" || first.text !== message) {
        throw new Error(`raw SDK v2: echo answered ${JSON.stringify(content)}`);
      }
    };
    for (let i = 0; i < task.warmupCalls; i++) await call(i);
    const cpu = cpuTime();
    const start = performance.now();
    for (let i = 0; i < task.calls; i++) await call(i);
    const ms = since(start);
    return { kind: "calls", ms, cpuMs: cpu(), calls: task.calls };
  } finally {
    await client.close();
  }
}

async function readServers(cwd: string): Promise<Record<string, StdioServer>> {
  const file = JSON.parse(await readFile(join(cwd, ".mcp-rt", "mcp.json"), "utf8")) as {
    mcpServers: Record<string, StdioServer>;
  };
  return file.mcpServers;
}

/** Close every client, read the project's config again, connect + list again. */
export async function reload(task: ReloadTask): Promise<ReloadResult> {
  let connected = await connectAll(await readServers(task.cwd), task.cwd);
  try {
    const start = performance.now();
    await closeAll(connected);
    connected = [];
    const disconnectMs = since(start);
    const connectStart = performance.now();
    connected = await connectAll(await readServers(task.cwd), task.cwd);
    const connectMs = since(connectStart);
    const ms = since(start);
    const tools = connected.reduce((sum, { tools }) => sum + tools.length, 0);
    expectToolCount("raw SDK v2", tools, task.expectTools);
    return { kind: "reload", ms, disconnectMs, connectMs, registerMs: 0, tools, deferred: 0 };
  } finally {
    await closeAll(connected);
  }
}
