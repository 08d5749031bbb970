import { mkdir } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fixtureServers, toolsPerFixture } from "../fixture-servers.js";
import { ratioAtMost, type Scenario, type ScenarioReport } from "../scenario.js";
import { liveSpreadTables, spreadOf } from "./live-spread.js";
import { LABELS, runStartups } from "./startup-plans.js";

/** mcp-rt with every server spawned at once, as before its spawn scheduler (diagnostic). */
const MCP_RT_ALL_AT_ONCE = "mcp-rt-all-at-once";
/** The raw SDK with a simple limit on how many servers start at once. */
const RAW_SPREAD = "raw-sdk-spread";
/** The raw SDK starting the first server alone: one server's cold start. */
const ONE_ALONE = "raw-sdk-one-alone";

/**
 * 13. Many stdio servers, nothing cached, on a machine with few cores: when
 * each server's tools are live. Spawned all at once, they share the CPU for
 * their whole start and none is ready early; spread over the cores, the
 * first come in one server's time and the last no later (issue 35).
 */
export const manyServers: Scenario = {
  number: 13,
  id: "many-servers",
  title: "Many servers cold",
  async run(context): Promise<ScenarioReport> {
    const size = context.sizes.manyServers;
    const dir = await context.tempDir("many-servers");
    const cwd = join(dir, "project");
    await mkdir(cwd);
    const servers = fixtureServers(size.servers);
    const [firstName, firstServer] = Object.entries(servers)[0] ?? [];
    if (!firstName || !firstServer) throw new Error("scenario 13 needs at least one server");
    const cores = availableParallelism();
    let run = 0;
    // Every run gets an empty cache folder: a first start on this machine.
    const cacheDir = (): string => join(dir, `cache-${++run}`);
    const counts = { warmup: size.warmup, runs: size.runs };
    const full = context.mode === "full";
    const outcomes = await runStartups(
      context,
      { kind: "startup", servers, cwd, expectTools: size.servers * toolsPerFixture(), cacheDir },
      [
        { id: "mcp-rt", ...counts, maxConcurrentStarts: cores },
        ...(full
          ? [
              {
                id: "mcp-rt" as const,
                ...counts,
                as: MCP_RT_ALL_AT_ONCE,
                maxConcurrentStarts: "Infinity" as const,
              },
            ]
          : []),
        { id: "raw-sdk", ...counts },
        { id: "raw-sdk", ...counts, as: RAW_SPREAD, maxConcurrentStarts: cores },
        {
          id: "raw-sdk",
          ...counts,
          as: ONE_ALONE,
          servers: { [firstName]: firstServer },
          expectTools: toolsPerFixture(),
        },
      ],
    );
    const labels: Record<string, string> = {
      ...LABELS,
      "mcp-rt": `mcp-rt, \`maxConcurrentStarts: ${cores}\` passed to \`MCPManager\``,
      [MCP_RT_ALL_AT_ONCE]: "mcp-rt, `maxConcurrentStarts: Infinity` (every server at once; diagnostic)",
      "raw-sdk": "raw SDK, `Promise.all` (every server at once)",
      [RAW_SPREAD]: `raw SDK, at most ${cores} starting at once`,
      [ONE_ALONE]: `raw SDK, one server alone (${firstName})`,
    };
    const spread = (id: string, which: "first" | "median" | "last") => spreadOf(outcomes, id, which);
    return {
      number: 13,
      title: `Many servers cold: ${size.servers} one-tool stdio servers, when each one's tools are live`,
      setup: [
        `${size.servers} \`echoServer\` fixtures (Node, one tool each), nothing cached; each run in a fresh process, the contenders taking turns. For each server, the time from the call that begins connecting until its tools were listed (mcp-rt: its \`server:connected\`); per run the first, the median and the last of them; the tables show their medians over the runs.`,
        `This machine has ${cores} CPU core(s) (\`os.availableParallelism()\`). mcp-rt: \`MCPManager.connectServers\` with an empty file-store cache each run and \`maxConcurrentStarts\` passed through the manager's options${full ? "; a diagnostic row with `Infinity`, every server at once" : ""}. Raw SDK (v1): \`Client\` + \`StdioClientTransport\` per server, connect + every \`tools/list\` page, all at once with \`Promise.all\` (what every client does today), and with a simple limit of ${cores} in connect + list at once, the others waiting in config order. One server alone: the raw SDK starting ${firstName} and nothing else (the floor of one server's cold start: no client work beside it).`,
      ],
      tables: liveSpreadTables({ what: "cold", outcomes, labels, baseline: "raw-sdk" }),
      targets: [
        ratioAtMost({
          target: "first live tool: mcp-rt ≤ 1.5 × one server's cold start alone",
          of: spread("mcp-rt", "first"),
          to: spread(ONE_ALONE, "first"),
          limit: 1.5,
        }),
        ratioAtMost({
          target: "median server live: mcp-rt ≤ 0.6 × the raw SDK's `Promise.all`",
          of: spread("mcp-rt", "median"),
          to: spread("raw-sdk", "median"),
          limit: 0.6,
        }),
        ratioAtMost({
          target: "last server live: mcp-rt ≤ 1.0 × the raw SDK's `Promise.all`",
          of: spread("mcp-rt", "last"),
          to: spread("raw-sdk", "last"),
          limit: 1.0,
        }),
      ],
      notes: [
        "mcp-rt's row passes `maxConcurrentStarts` to `MCPManager` as given; a manager that does not act on it spawns every server at once, and its row is then that start.",
      ],
    };
  },
};
