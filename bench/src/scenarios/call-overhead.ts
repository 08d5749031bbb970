import { spawnSync } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { alternate, type ContenderPlan } from "../alternate.js";
import { fixtureServers } from "../fixture-servers.js";
import { metricTable, ratioAtMost, type Scenario, type ScenarioReport } from "../scenario.js";
import { summarize } from "../stats.js";
import type { CallsResult, ContenderId } from "../tasks.js";
import { LABELS } from "./startup-plans.js";

const OWN_SESSION = "raw-sdk-own-session";
const WITH_ONPROGRESS = "raw-sdk-onprogress";
const WITH_TOKEN = "raw-sdk-progress-token";

/** `setsid` (util-linux) runs a program in a new session, as mcp-rt's process groups do. */
export function hasSetsid(): boolean {
  return spawnSync("setsid", ["--version"], { stdio: "ignore" }).status === 0;
}

/** 3. Sequential calls: what `MCPTool.execute` adds to a raw `client.callTool`. */
export const callOverhead: Scenario = {
  number: 3,
  id: "call-overhead",
  title: "Call overhead",
  async run(context): Promise<ScenarioReport> {
    const size = context.sizes.calls;
    const cwd = join(await context.tempDir("call-overhead"), "project");
    await mkdir(cwd);
    const server = Object.values(fixtureServers(1))[0]!;
    const plan = (
      id: ContenderId,
      { ownSession = false, progress = false, token = false } = {},
    ): ContenderPlan<CallsResult> => ({
      id: progress ? WITH_ONPROGRESS : token ? WITH_TOKEN : ownSession ? OWN_SESSION : id,
      warmup: size.warmup,
      runs: size.runs,
      run: () =>
        context.worker({
          kind: "calls",
          contender: id,
          server,
          cwd,
          calls: size.calls,
          warmupCalls: size.warmupCalls,
          ...(ownSession ? { serverInOwnSession: true } : {}),
          ...(progress ? { askForProgress: true } : {}),
          ...(token ? { sendProgressToken: true } : {}),
        }),
    });
    const diagnostic = hasSetsid();
    const outcomes = await alternate(
      [
        plan("mcp-rt"),
        plan("raw-sdk"),
        plan("raw-sdk-v2"),
        ...(diagnostic
          ? [
              plan("raw-sdk", { ownSession: true }),
              plan("raw-sdk", { ownSession: true, progress: true }),
              plan("raw-sdk", { ownSession: true, token: true }),
            ]
          : []),
      ],
      context.onRun,
    );
    const labels = {
      ...LABELS,
      [OWN_SESSION]: "raw SDK, server in a session of its own (setsid; diagnostic)",
      [WITH_ONPROGRESS]:
        "raw SDK asking for progress through `onprogress`, server in a session of its own (diagnostic)",
      [WITH_TOKEN]:
        "raw SDK sending a `progressToken` (no `onprogress`), server in a session of its own: mcp-rt's request (diagnostic)",
    };
    const total = metricTable({
      metric: `${size.calls} sequential echo calls`,
      unit: "ms",
      outcomes,
      labels,
      pick: (result) => result.ms,
      baseline: "raw-sdk",
    });
    const perCall = metricTable({
      metric: "time per call",
      unit: "µs",
      outcomes,
      labels,
      pick: (result) => (result.ms * 1000) / result.calls,
      baseline: "raw-sdk",
    });
    const cpuPerCall = metricTable({
      metric: "host CPU per call (user + system time of the client process: its own work, without waiting)",
      unit: "µs",
      outcomes,
      labels,
      pick: (result) => (result.cpuMs * 1000) / result.calls,
      baseline: "raw-sdk",
    });
    const ms = (id: string) => summarize(outcomes.get(id)?.results.map((result) => result.ms) ?? []);
    const cpu = (id: string) =>
      summarize(outcomes.get(id)?.results.map((result) => (result.cpuMs * 1000) / result.calls) ?? []);
    return {
      number: 3,
      title: `Call overhead: ${size.calls} sequential \`echo\` calls over stdio`,
      setup: [
        `One \`echoServer\` fixture; each run in a fresh process connects and lists the tools (untimed; the raw SDK too, as an agent must before it can call one), makes ${size.warmupCalls} untimed calls, then times ${size.calls} calls one after another, checking every answer.`,
        "mcp-rt: `MCPTool.execute` of the tool `connectServers` returned (result converted to the agent's `ToolResult`); raw SDK: `client.callTool`.",
      ],
      tables: [total, perCall, cpuPerCall],
      targets: [
        ratioAtMost({ target: "mcp-rt ≤ 1.05 × raw SDK", of: ms("mcp-rt"), to: ms("raw-sdk"), limit: 1.05 }),
        ratioAtMost({
          target: "mcp-rt host CPU per call ≤ 1.10 × raw SDK",
          of: cpu("mcp-rt"),
          to: cpu("raw-sdk"),
          limit: 1.1,
        }),
      ],
      notes: [
        "LangChain is not run here: the issue compares call overhead against the raw client only.",
        "Host CPU per call is a time, and on a small virtual machine it swings by more than the gap between two clients (min and max above). `node dist/instructions.js` counts a call's instructions instead (valgrind's callgrind, the same contenders and server), which move by about ±5 % between runs: README.md, \"Counting instructions\", says what it found and how to run it.",
        ...(diagnostic
          ? [
              "The third row is a diagnostic, not a peer: the raw SDK with its server started through `setsid`, in a session of its own as mcp-rt starts every stdio server (its process-group design). It shows how much the session alone moves a call on this machine; the CPU table shows each client's own work.",
              "The fourth row is a diagnostic too: the raw SDK with its server in a session of its own and every call asking for progress through the SDK's `onprogress` (the limit restarted by each notification), as mcp-rt's `callTool` did until it asked with tokens of its own: given `onprogress`, the SDK builds each request again with two spread-then-property literals, on Node 20's slow path. mcp-rt asks for progress on every call all the same (it keeps a long call alive past its timeout).",
              ...tokenRowNote(ms, cpu),
            ]
          : []),
      ],
    };
  },
};

/**
 * What the fifth row says: the raw SDK making mcp-rt's request (a server in
 * a session of its own, a `progressToken` in every call) against the raw
 * SDK, and mcp-rt against it, which leaves mcp-rt's own code.
 */
function tokenRowNote(
  ms: (id: string) => { median: number } | undefined,
  cpu: (id: string) => { median: number } | undefined,
): string[] {
  const [mcpRt, raw, row] = [ms("mcp-rt"), ms("raw-sdk"), ms(WITH_TOKEN)];
  const [mcpRtCpu, rawCpu, rowCpu] = [cpu("mcp-rt"), cpu("raw-sdk"), cpu(WITH_TOKEN)];
  if (!mcpRt || !raw || !row || !mcpRtCpu || !rawCpu || !rowCpu) return [];
  const ratio = (a: { median: number }, b: { median: number }) => (a.median / b.median).toFixed(3);
  return [
    `The fifth row is the raw SDK making the request mcp-rt makes: its server in a session of its own and a \`progressToken\` in every call's \`_meta\` (mcp-rt asks for progress on every call: it lets a server report progress, which keeps a long call alive past its timeout), without \`onprogress\`. It took ${ratio(row, raw)} × the raw SDK's time and ${ratio(rowCpu, rawCpu)} × its host CPU: a server does more for a call that may report progress, its client hardly. mcp-rt took ${ratio(mcpRt, row)} × that row's time and ${ratio(mcpRtCpu, rowCpu)} × its host CPU: what mcp-rt adds beyond the request it makes.`,
  ];
}
