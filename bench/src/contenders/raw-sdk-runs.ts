import { readFile } from "node:fs/promises";
import { createServerEnv } from "@mcp-rt/client/light";
import { mcpRtPath } from "@mcp-rt/config";
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
import type { ContenderModule } from "./contender.js";
import {
  cpuTime,
  expectToolCount,
  heapMB,
  peakRssMB,
  processesLeft,
  since,
  startLimit,
  watchEventLoop,
} from "./measure.js";
import { textOf, timeToolCalls } from "./tool-calls.js";

/** A tool call's answer, as the runs read it (v1's result type also admits a legacy shape without `content`). */
type CallAnswer = { content?: unknown; isError?: unknown };

/** What the runs ask of a connected SDK client, the same of the SDK's v1 and v2. */
export interface RawClient {
  /** Every `tools/list` page. */
  listAllTools(): Promise<unknown[]>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    options?: ProgressOptions,
  ): Promise<object>;
  close(): Promise<void>;
}

/** The request options both SDKs take for a call that asks for progress. */
export interface ProgressOptions {
  onprogress: () => void;
  resetTimeoutOnProgress: boolean;
  timeout: number;
  maxTotalTimeout: number;
}

/** One line of the official SDK: how it connects a stdio server, and what it is called in reports. */
export interface RawSdk {
  label: string;
  /** The SDK's own default request timeout, for the runs that ask for progress as mcp-rt did. */
  defaultRequestTimeoutMs: number;
  /** Its `Client` over its `StdioClientTransport`, connected (stderr ignored: the cheapest choice). */
  connect(server: StdioServer, cwd: string): Promise<RawClient>;
}

/**
 * The floor: the official SDK's `Client` over its `StdioClientTransport`, one
 * per server, `Promise.all` over the servers, every `tools/list` page. No
 * cache, no naming, no registry: what any runtime must at least do. The same
 * runs for each line of the SDK (`raw-sdk.ts`, v1, the targets' floor;
 * `raw-sdk-v2.ts`).
 */
export function rawSdkContender(sdk: RawSdk): Required<ContenderModule> {
  interface Connected {
    name: string;
    client: RawClient;
    tools: unknown[];
    /** From the start of `connectAll` until this server's tools were listed. */
    ms: number;
  }

  /** Connect + list every server: all at once (`Promise.all`), or at most `limit` at once. */
  async function connectAll(
    servers: Record<string, StdioServer>,
    cwd: string,
    limit = Number.POSITIVE_INFINITY,
  ): Promise<Connected[]> {
    const start = performance.now();
    const starts = Object.entries(servers).map(([name, server]) => async (): Promise<Connected> => {
      const client = await sdk.connect(server, cwd);
      const tools = await client.listAllTools();
      return { name, client, tools, ms: since(start) };
    });
    const settled =
      limit >= starts.length
        ? await Promise.allSettled(starts.map((connect) => connect()))
        : await settleAtMost(starts, limit);
    const failed = settled.find((outcome) => outcome.status === "rejected");
    if (failed) {
      await closeAll(settled.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : [])));
      throw failed.reason;
    }
    return settled.map((outcome) => (outcome as PromiseFulfilledResult<Connected>).value);
  }

  /** Runs `jobs` in their order, at most `limit` at a time: a simple limit, as a client could add in a few lines. */
  async function settleAtMost<T>(
    jobs: Array<() => Promise<T>>,
    limit: number,
  ): Promise<PromiseSettledResult<T>[]> {
    const settled: PromiseSettledResult<T>[] = [];
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < jobs.length) {
        const at = next++;
        try {
          settled[at] = { status: "fulfilled", value: await jobs[at]!() };
        } catch (reason) {
          settled[at] = { status: "rejected", reason };
        }
      }
    };
    await Promise.all(Array.from({ length: limit }, lane));
    return settled;
  }

  async function closeAll(connected: Connected[]): Promise<void> {
    await Promise.allSettled(connected.map(({ client }) => client.close()));
  }

  /** Connect + list every server in parallel. */
  async function startup(task: StartupTask): Promise<StartupResult> {
    let servers = task.serverInOwnSession ? inAllOwnSessions(task.servers) : task.servers;
    if (task.serverWithHostEnv) servers = withHostEnv(servers);
    const stall = watchEventLoop();
    const cpu = cpuTime();
    const start = performance.now();
    const connected = await connectAll(servers, task.cwd, startLimit(task.maxConcurrentStarts));
    const ms = since(start);
    const loopStallMs = stall();
    const cpuMs = cpu();
    const tools = connected.reduce((sum, { tools }) => sum + tools.length, 0);
    const closeStart = performance.now();
    await closeAll(connected);
    const closeMs = since(closeStart);
    const left = processesLeft();
    expectToolCount(sdk.label, tools, task.expectTools);
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
  async function toolCalls(task: ToolCallsTask): Promise<ToolCallsResult> {
    const servers = task.serverInOwnSession ? inAllOwnSessions(task.servers) : task.servers;
    const connected = await connectAll(servers, task.cwd);
    try {
      const clients = new Map(connected.map(({ name, client }) => [name, client]));
      return await timeToolCalls(sdk.label, task, async (spec) => {
        const client = clients.get(spec.server);
        if (!client) throw new Error(`${sdk.label}: no server "${spec.server}"`);
        const answer: CallAnswer = await client.callTool({ name: spec.tool, arguments: spec.arguments });
        const content = answer.content as Array<{ type: string; text?: string }>;
        if (answer.isError)
          throw new Error(`${sdk.label}: ${spec.server}/${spec.tool} failed: ${textOf(content)}`);
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
  async function calls(task: CallsTask): Promise<CallsResult> {
    const server = task.serverInOwnSession ? inOwnSession(task.server) : task.server;
    const client = await sdk.connect(server, task.cwd);
    // Listed first, as an agent must before it can call a tool, and as mcp-rt's contender is: the SDK's
    // parsing code then runs its calls in the state a listing leaves it in (README.md, "Counting instructions").
    await client.listAllTools();
    // What mcp-rt's callTool asked of the SDK before it asked for progress itself: each notification restarting the limit.
    const options: ProgressOptions | undefined = task.askForProgress
      ? {
          onprogress: () => {},
          resetTimeoutOnProgress: true,
          timeout: sdk.defaultRequestTimeoutMs,
          maxTotalTimeout: sdk.defaultRequestTimeoutMs * 10,
        }
      : undefined;
    try {
      const call = async (i: number): Promise<void> => {
        const message = `message ${i}`;
        const params = task.sendProgressToken
          ? { name: "echo", arguments: { message }, _meta: { progressToken: i } }
          : { name: "echo", arguments: { message } };
        const answer: CallAnswer = await client.callTool(params, options);
        const content = answer.content as Array<{ type: string; text?: string }>;
        const first = content[0];
        if (answer.isError || first?.type !== "text" || first.text !== message) {
          throw new Error(`${sdk.label}: echo answered ${JSON.stringify(content)}`);
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
    const file = JSON.parse(await readFile(mcpRtPath("mcp.json", cwd), "utf8")) as {
      mcpServers: Record<string, StdioServer>;
    };
    return file.mcpServers;
  }

  /** Close every client, read the project's config again, connect + list again. */
  async function reload(task: ReloadTask): Promise<ReloadResult> {
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
      expectToolCount(sdk.label, tools, task.expectTools);
      return { kind: "reload", ms, disconnectMs, connectMs, registerMs: 0, tools, deferred: 0 };
    } finally {
      await closeAll(connected);
    }
  }

  return { startup, toolCalls, calls, reload };
}
