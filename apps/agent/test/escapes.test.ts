import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fixtureServer, TERMINAL_ESCAPES } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { terminalSafe } from "../src/terminal-text.js";
import { runAgent, useSandbox } from "./agent-process.js";

// Anything a terminal acts on: C0 controls but tab and line feed, DEL, C1 controls.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe("server text on the terminal", () => {
  const sandbox = useSandbox();

  it("terminalSafe removes escape sequences and control characters, and keeps the text", () => {
    expect(terminalSafe(`before${TERMINAL_ESCAPES}after`)).toBe("beforeafter");
    expect(terminalSafe("a\tb\nc\r\nd\u0007\u001b[31mred\u001b[0m \u009b2J")).toBe("a\tb\nc\ndred ");
  });

  it("no tool name, description, result or stderr of a server writes escape sequences to it", async () => {
    const config = join(sandbox().root, "hostile.json");
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          esc: fixtureServer({ escapes: true }),
          dies: fixtureServer({ escapes: true, exitCode: 3 }),
        },
      }),
    );
    // The exposed name, as the naming rules make it of `escape` + the sequences.
    const tool = "mcp_esc_escape_52_c_agfja2vk_2j_h_0_owned_31m";
    const commands = ["/tools", `/call ${tool} {}`, "/mcp list", "/mcp list dies"];
    const text = await runAgent(
      ["--config", config, "--cache", "memory:", ...commands.flatMap((line) => ["--exec", line])],
      sandbox(),
    );
    expect(text.stdout).toContain("Shows escape sequences.");
    expect(text.stdout).toMatch(/← mcp_esc_escape_\S+ \(\d+ ms\)\nbeforeafter\n/);
    expect(text.stdout).toContain("✗ dies:");
    // The stderr tail, escapes and all, under /mcp list dies.
    expect(text.stdout).toContain("starting (--escapes)");
    expect(text.stdout).not.toMatch(CONTROL);
    expect(text.stderr).not.toMatch(CONTROL);

    const json = await runAgent(
      ["--json", "--config", config, "--cache", "memory:", "--exec", `/call ${tool} {}`],
      sandbox(),
    );
    expect(json.stdout).not.toMatch(CONTROL);
    const result = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; text: string; content?: unknown })
      .find((line) => line.type === "tool-result");
    // Programs reading --json still get the server's exact content.
    expect(result?.content).toEqual([{ type: "text", text: `before${TERMINAL_ESCAPES}after` }]);
    expect(result?.text).toMatch(/beforeafter$/);
  });
});
