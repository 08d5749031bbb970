import type { ContenderOutcome } from "../alternate.js";
import { REAL_SERVER_PACKAGES, REAL_SERVER_TOOLS } from "../real-servers.js";
import { formatValue } from "../scenario.js";
import { summarize } from "../stats.js";
import type { StartupResult, StdioServer, ToolCallSpec, ToolCallsResult } from "../tasks.js";

const median = (samples: number[]): number | undefined => summarize(samples)?.median;
const show = (value: number | undefined, unit: "ms" | "µs"): string =>
  value === undefined ? "—" : formatValue(value, unit);
const times = (of: number | undefined, to: number | undefined): string =>
  of === undefined || to === undefined || to === 0 ? "—" : (of / to).toFixed(3);

/**
 * Per server, the median time from the start until its tools were listed, in
 * the raw SDK's and mcp-rt's cold starts (all servers starting at once), the
 * slowest first: which server holds the start up.
 */
export function startPerServerTable(
  servers: Record<string, StdioServer>,
  starts: Map<string, ContenderOutcome<StartupResult>>,
): string {
  const perServer = (id: string, name: string): number | undefined =>
    median(starts.get(id)?.results.flatMap((result) => result.perServerMs?.[name] ?? []) ?? []);
  const rows = Object.keys(servers)
    .map((name) => ({ name, raw: perServer("raw-sdk", name), mcpRt: perServer("mcp-rt", name) }))
    .sort((a, b) => (b.raw ?? 0) - (a.raw ?? 0))
    .map(
      ({ name, raw, mcpRt }) =>
        `| ${name} | \`${REAL_SERVER_PACKAGES[name] ?? name}\` | ${REAL_SERVER_TOOLS[name] ?? "—"} | ${show(raw, "ms")} | ${show(mcpRt, "ms")} | ${times(mcpRt, raw)} |`,
    );
  return [
    "**per server, cold: from the start until its tools were listed (medians; all servers start at once, the slowest first)**",
    "",
    "| server | package | tools | raw SDK | mcp-rt | × raw SDK |",
    "| --- | --- | ---: | ---: | ---: | ---: |",
    ...rows,
  ].join("\n");
}

/** Per server, the median time per call of every contender (`labels` names them), and mcp-rt's over the raw SDK's. */
export function callsPerServerTable(
  calls: ToolCallSpec[],
  outcomes: Map<string, ContenderOutcome<ToolCallsResult>>,
  labels: Record<string, string>,
): string {
  const perCall = (id: string, name: string): number | undefined =>
    median(
      outcomes.get(id)?.results.flatMap((result) => {
        const server = result.perServer[name];
        return server && server.calls > 0 ? [(server.ms * 1000) / server.calls] : [];
      }) ?? [],
    );
  const ids = [...outcomes.keys()];
  const names = [...new Set(calls.map((spec) => spec.server))];
  const rows = names.map((name) => {
    const tools = calls.filter((spec) => spec.server === name).map((spec) => `\`${spec.tool}\``);
    const cells = ids.map((id) => show(perCall(id, name), "µs"));
    return `| ${name} | ${tools.join(", ")} | ${cells.join(" | ")} | ${times(perCall("mcp-rt", name), perCall("raw-sdk", name))} |`;
  });
  return [
    "**per server: time per call (medians)**",
    "",
    `| server | tools called | ${ids.map((id) => labels[id] ?? id).join(" | ")} | mcp-rt × raw SDK |`,
    `| --- | --- | ${ids.map(() => "---:").join(" | ")} | ---: |`,
    ...rows,
  ].join("\n");
}
