/**
 * Instructions per tool call, counted instead of timed: scenario 3's calls
 * (one `echoServer`, sequential `echo` calls) run under valgrind's callgrind,
 * once with the calls and once with none, each contender in a fresh process;
 * the difference divided by the calls is what one call costs the client
 * process, on any machine alike. Its host CPU swings by more than the gap
 * between contenders on a busy two-core VM; an instruction count does not
 * (README.md, "Counting instructions").
 *
 * What V8's optimizing compiler and its garbage collector did during the calls
 * is counted apart: when a function gets optimized, and when a collection
 * falls, moves from run to run, the calls' own work does not.
 *
 * Usage: `node dist/instructions.js [--calls 3000] [--warmup 5000]
 * [--contenders raw-sdk,raw-sdk-v2,mcp-rt]` (valgrind and callgrind_annotate
 * on the PATH: `apt-get install valgrind`).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadContender } from "./contenders/load.js";
import { fixtureServers } from "./fixture-servers.js";
import type { CallsTask } from "./tasks.js";

/** Instructions of one callgrind run (or per call), by what ran them. */
export interface InstructionCounts {
  total: number;
  /** V8's optimizing compiler (TurboFan), on its own threads or the main one. */
  compiler: number;
  /** The garbage collector: scavenges, marking, sweeping, write barriers. */
  gc: number;
  /** Everything else: the JavaScript of the calls, V8's builtins and runtime, Node, libc. */
  rest: number;
}

const COMPILER =
  /v8::internal::compiler::|v8::internal::(turboshaft|maglev)::|v8::internal::Zone|RegisterAllocat|LiveRange|_Rb_tree/;
const GC =
  /Scaveng|Marking|MarkCompact|Sweep|Evacuat|BodyDescriptor|RememberedSet|SlotSet|MemoryChunk|WriteBarrier|Worklist|GlobalHandles|LiveObjectRange|heap::base::|v8::internal::Heap::/;

/** Sorts the function lines of `callgrind_annotate` output into {@link InstructionCounts}. */
export function countInstructions(annotated: string): InstructionCounts {
  const counts: InstructionCounts = { total: 0, compiler: 0, gc: 0, rest: 0 };
  let inFunctions = false;
  for (const line of annotated.split("\n")) {
    const match = /^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(.+)$/.exec(line);
    if (!match) {
      if (/^Ir\s+file:function/.test(line)) inFunctions = true;
      continue;
    }
    const ir = Number((match[1] as string).replaceAll(",", ""));
    const name = match[2] as string;
    if (name.includes("PROGRAM TOTALS")) counts.total = ir;
    else if (!inFunctions) continue;
    else if (COMPILER.test(name)) counts.compiler += ir;
    else if (GC.test(name)) counts.gc += ir;
  }
  counts.rest = counts.total - counts.compiler - counts.gc;
  return counts;
}

/** `(withCalls − withoutCalls) / calls`, kind by kind. */
export function perCall(
  withCalls: InstructionCounts,
  withoutCalls: InstructionCounts,
  calls: number,
): InstructionCounts {
  const each = (key: keyof InstructionCounts): number => (withCalls[key] - withoutCalls[key]) / calls;
  return { total: each("total"), compiler: each("compiler"), gc: each("gc"), rest: each("rest") };
}

/** The contenders counted, as scenario 3 runs them. */
const CONTENDERS = ["raw-sdk", "raw-sdk-v2", "mcp-rt"] as const;
type Contender = (typeof CONTENDERS)[number];

const NAMES: Record<Contender, string> = {
  "raw-sdk": "raw SDK `client.callTool`",
  "raw-sdk-v2": "raw SDK v2 `client.callTool`",
  "mcp-rt": "mcp-rt `MCPTool.execute`",
};

/** In the child: one contender's calls, as the benchmark's worker runs them (no clock matters here). */
async function child(contender: Contender, calls: number, warmupCalls: number): Promise<void> {
  const server = Object.values(fixtureServers(1))[0];
  if (!server) throw new Error("no fixture server");
  const task: CallsTask = {
    kind: "calls",
    contender,
    server,
    cwd: mkdtempSync(join(tmpdir(), "mcp-rt-instructions-")),
    calls,
    warmupCalls,
  };
  const module = await loadContender(contender);
  if (!module.calls) throw new Error(`${contender} has no calls benchmark`);
  await module.calls(task);
}

/** Every thread's instructions together, and the main thread's (where the calls run), by kind. */
interface Threads {
  all: number;
  main: InstructionCounts;
}

/** One callgrind run: every thread's instructions together, and the main thread's (where the calls run). */
function callgrind(outFile: string, contender: Contender, calls: number, warmup: number): Threads {
  const self = fileURLToPath(import.meta.url);
  const args = ["--tool=callgrind", "--separate-threads=yes", `--callgrind-out-file=${outFile}`];
  execFileSync(
    "valgrind",
    [...args, process.execPath, self, "--child", contender, String(calls), String(warmup)],
    {
      stdio: "ignore",
    },
  );
  const dir = dirname(outFile);
  // One file per thread, `<out>-01` the main one.
  const files = readdirSync(dir)
    .filter((file) => file.startsWith(`${basename(outFile)}-`))
    .sort();
  const counted = files.map((file) =>
    countInstructions(
      execFileSync("callgrind_annotate", ["--threshold=100", join(dir, file)], {
        maxBuffer: 1 << 28,
      }).toString(),
    ),
  );
  const main = counted[0];
  if (!main) throw new Error(`callgrind wrote no profile for ${contender}`);
  return { all: counted.reduce((sum, c) => sum + c.total, 0), main };
}

/** Whether `command` is on the PATH (callgrind_annotate answers `--version` with exit code 255). */
function hasTool(command: string): boolean {
  try {
    execFileSync("sh", ["-c", 'command -v "$0"', command], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      child: { type: "boolean" },
      calls: { type: "string" },
      warmup: { type: "string" },
      contenders: { type: "string" },
    },
  });
  if (values.child) {
    const [contender, calls, warmup] = positionals;
    await child(contender as Contender, Number(calls), Number(warmup));
    process.exit(0);
  }
  const calls = Number(values.calls ?? 3000);
  const warmup = Number(values.warmup ?? 5000);
  if (!Number.isSafeInteger(calls) || calls < 1 || !Number.isSafeInteger(warmup) || warmup < 0) {
    throw new Error("--calls must be a whole number ≥ 1 and --warmup one ≥ 0");
  }
  const contenders = values.contenders?.split(",") ?? [...CONTENDERS];
  const unknown = contenders.filter((id) => !(CONTENDERS as readonly string[]).includes(id));
  if (unknown.length > 0)
    throw new Error(`--contenders: no contender ${unknown.join(", ")} (${CONTENDERS.join(", ")})`);
  if (!hasTool("valgrind") || !hasTool("callgrind_annotate")) {
    throw new Error(
      "valgrind and callgrind_annotate are needed on the PATH (Debian: apt-get install valgrind)",
    );
  }
  const dir = mkdtempSync(join(tmpdir(), "mcp-rt-callgrind-"));
  try {
    const counted = new Map<Contender, Threads>();
    for (const contender of contenders as Contender[]) {
      const without = callgrind(join(dir, `${contender}-0.out`), contender, 0, warmup);
      const withCalls = callgrind(join(dir, `${contender}-${calls}.out`), contender, calls, warmup);
      counted.set(contender, {
        all: (withCalls.all - without.all) / calls,
        main: perCall(withCalls.main, without.main, calls),
      });
    }
    const floor = counted.get("raw-sdk")?.main.rest ?? Number.NaN;
    const floorV2 = counted.get("raw-sdk-v2")?.main.rest ?? Number.NaN;
    const k = (n: number): string => `${(n / 1000).toFixed(1)} k`;
    console.log(
      `Instructions per call of the client process (callgrind; ${calls} calls after ${warmup} untimed, less the same run with none)\n`,
    );
    console.log(
      "| contender | every thread | main thread | main: V8's optimizing compiler | main: garbage collector | main: the rest, the calls' own work | rest × raw SDK | rest × raw SDK v2 |",
    );
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const [contender, { all, main }] of counted) {
      const row = [
        k(all),
        k(main.total),
        k(main.compiler),
        k(main.gc),
        k(main.rest),
        (main.rest / floor).toFixed(3),
        (main.rest / floorV2).toFixed(3),
      ];
      console.log(`| ${NAMES[contender]} | ${row.join(" | ")} |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
