import type { MachineInfo } from "./machine.js";
import { formatValue, type MetricTable, type ScenarioReport } from "./scenario.js";

/** A whole run, as RESULTS.md shows it. */
export interface BenchReport {
  mode: "quick" | "full";
  machine: MachineInfo;
  startedAt: Date;
  durationMs: number;
  command: string;
  scenarios: ScenarioReport[];
  /** Scenarios that could not run at all, with why. */
  crashed: Array<{ number: number; title: string; error: string }>;
}

const cell = (text: string): string => text.replaceAll("|", "\\|").replaceAll("\n", " ");

function renderTable(table: MetricTable): string[] {
  const ratioHeader = table.baseline ? `× ${table.baseline}` : "ratio";
  const lines = [
    `**${table.metric}**`,
    "",
    `| contender | runs | median | min | max | ${ratioHeader} |`,
    "| --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const row of table.rows) {
    const s = row.summary;
    const cells = s
      ? [
          String(s.runs),
          formatValue(s.median, table.unit),
          formatValue(s.min, table.unit),
          formatValue(s.max, table.unit),
        ]
      : ["0", "—", "—", "—"];
    const ratio = row.ratio === undefined ? "—" : `${row.ratio.toFixed(row.ratio >= 10 ? 1 : 3)}`;
    lines.push(`| ${cell(row.contender)} | ${cells.join(" | ")} | ${ratio} |`);
  }
  const failures = table.rows.flatMap((row) => row.failures.map((failure) => `${row.contender}: ${failure}`));
  if (failures.length > 0) {
    lines.push(
      "",
      "Failed runs (not in the numbers):",
      "",
      ...failures.map((failure) => `- ${cell(failure)}`),
    );
  }
  return lines;
}

function renderScenario(scenario: ScenarioReport): string[] {
  const lines = [
    `## ${scenario.number}. ${scenario.title}`,
    "",
    ...scenario.setup.flatMap((line) => [line, ""]),
  ];
  // Failures are listed once per scenario, under the first table that has them.
  const seen = new Set<string>();
  for (const table of scenario.tables) {
    const rows = table.rows.map((row) => {
      const fresh = row.failures.filter((failure) => !seen.has(`${row.contender}:${failure}`));
      for (const failure of fresh) seen.add(`${row.contender}:${failure}`);
      return { ...row, failures: fresh };
    });
    lines.push(...renderTable({ ...table, rows }), "");
  }
  for (const detail of scenario.details ?? []) lines.push(detail, "");
  for (const target of scenario.targets) {
    lines.push(`- Target: ${target.target} — ${target.measured} — **${target.met ? "met" : "not met"}**`);
  }
  if (scenario.targets.length > 0) lines.push("");
  for (const note of scenario.notes) lines.push(`Note: ${note}`, "");
  return lines;
}

/** Renders a run as Markdown. */
export function renderReport(report: BenchReport): string {
  const { machine } = report;
  const targets = report.scenarios.flatMap((scenario) =>
    scenario.targets.map((target) => ({ scenario: scenario.number, ...target })),
  );
  const lines = [
    "# mcp-rt benchmarks",
    "",
    `Written by \`${report.command}\`${report.mode === "quick" ? " (quick mode: tiny sizes, the numbers mean nothing)" : ""}. How to run and read it: [README.md](README.md).`,
    "",
    `- Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB.toFixed(1)} GiB memory (${machine.freeMemoryGiB.toFixed(1)} GiB free), ${machine.os}; load average ${machine.loadAverage.toFixed(2)} at the start`,
    ...(machine.autogroup === undefined
      ? []
      : [
          `- Scheduler: autogroup ${machine.autogroup ? "on" : "off"} (\`kernel.sched_autogroup_enabled\`; see README.md, "Busy machines")`,
        ]),
    `- Node: ${machine.node}`,
    ...(machine.nodeStartEnv === undefined
      ? []
      : [
          `- Environment: ${machine.nodeStartEnv.names.map((name) => `\`${name}\``).join(" and ")} set; a \`node -e 0\` took ${machine.nodeStartEnv.withMs.toFixed(1)} ms with ${machine.nodeStartEnv.names.length > 1 ? "them" : "it"} and ${machine.nodeStartEnv.withoutMs.toFixed(1)} ms without. mcp-rt's stdio servers inherit the host's environment (minus names that look secret), the raw SDK's and LangChain's get the SDK's default six variables: each Node server starts slower under mcp-rt by the difference (see README.md, "Busy machines")`,
        ]),
    `- Date: ${report.startedAt.toISOString()}`,
    `- Duration: ${(report.durationMs / 1000).toFixed(0)} s`,
    "",
    "Times are medians of runs in which the contenders took turns (A, B, A, B …) after a warm-up; min and max show the spread; ratios divide medians. Start-up is measured in a fresh process per run, from the call that begins connecting.",
    "",
    "## Targets",
    "",
    "| scenario | target | measured | verdict |",
    "| ---: | --- | --- | --- |",
    ...targets.map(
      (target) =>
        `| ${target.scenario} | ${cell(target.target)} | ${cell(target.measured)} | ${target.met ? "met" : "not met"} |`,
    ),
    ...report.crashed.map((crash) => `| ${crash.number} | ${cell(crash.title)} | could not run | not met |`),
    "",
  ];
  for (const scenario of report.scenarios) lines.push(...renderScenario(scenario));
  for (const crash of report.crashed) {
    lines.push(`## ${crash.number}. ${crash.title}`, "", "Could not run:", "", "```", crash.error, "```", "");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
