import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { contentServer } from "@mcp-rt/testing";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  assertBuilt,
  createSandbox,
  hasScript,
  type LiveProcess,
  runAgent,
  type Sandbox,
  startInTerminal,
  stopAgent,
  waitForNoProcesses,
} from "./agent-process.js";

const CTRL_C = "\x03";

/**
 * A config file with one server `notes`: the fixture with resources, prompts and elicitation tools;
 * `modern` speaks only 2026-07-28, where elicitation comes as `input_required` results.
 */
async function notesConfig(sandbox: Sandbox, era: "legacy" | "modern" = "legacy"): Promise<string> {
  const path = join(sandbox.root, "notes.json");
  await writeFile(path, JSON.stringify({ mcpServers: { notes: contentServer({ era }) } }));
  return path;
}

describe("resources, prompts and elicitation in the example agent", () => {
  let sandbox: Sandbox;
  let agent: LiveProcess | undefined;

  beforeAll(() => assertBuilt());
  beforeEach(async () => {
    sandbox = await createSandbox();
    // No browser may open from a test: a URL the user agrees to is printed instead.
    delete sandbox.env.DISPLAY;
    delete sandbox.env.WAYLAND_DISPLAY;
  });
  afterEach(async () => {
    await stopAgent(agent);
    agent = undefined;
    expect(await waitForNoProcesses(sandbox.marker)).toEqual([]);
    await sandbox.cleanup();
  });

  it.skipIf(!hasScript).each(["legacy", "modern"] as const)(
    "in a terminal: /prompt, an @server:uri attachment, a form answered field by field, Ctrl-C declining, a URL (%s era)",
    async (era) => {
      // A 2026-07-28 elicitation comes with the call that asks; a 2025 one does not.
      const during = (tool: string) => (era === "modern" ? `, while running its tool "${tool}",` : "");
      const config = await notesConfig(sandbox, era);
      agent = startInTerminal(sandbox, ["--config", config, "--cache", "memory:", "--model", "offline"]);
      await agent.waitFor(/tools available after \d+ ms[\s\S]*› /);

      let mark = agent.output().length;
      agent.write('/prompt notes greet {"who": "Ada"}\r');
      await agent.waitFor(/\[user\] greet: say hello to Ada/, { from: mark });
      await agent.waitFor(/\[offline\]/, { from: mark });

      mark = agent.output().length;
      agent.write("Summarise @notes:fixture://notes/first and @notes:fixture://nope\r");
      await agent.waitFor(/@notes:fixture:\/\/notes\/first attached \(\d+ characters\)/, { from: mark });
      await agent.waitFor(/✗ @notes:fixture:\/\/nope MCP error: /, { from: mark });

      mark = agent.output().length;
      agent.write("/call mcp_notes_ask {}\r");
      await agent.waitFor(new RegExp(`MCP server "notes"${during("ask")} asks: Who are you\\?`), {
        from: mark,
      });
      await agent.waitFor(/Name \(required\) — Your name\s+› /, { from: mark });
      agent.write("\r");
      await agent.waitFor(/Name is required/, { from: mark });
      agent.write("Ada\r");
      await agent.waitFor(/Colour\s+choose one: 1\) red {2}2\) green {2}3\) blue \[default: green\]/, {
        from: mark,
      });
      agent.write("\r");
      await agent.waitFor(/Happy \[y\/n\] \[default: true\]/, { from: mark });
      agent.write("n\r");
      await agent.waitFor(/Count/, { from: mark });
      agent.write("9\r");
      await agent.waitFor(/must be <= 5; try again/, { from: mark });
      agent.write("3\r");
      await agent.waitFor(/answer: accept \{"name":"Ada","color":"green","ok":false,"count":3\}/, {
        from: mark,
      });

      mark = agent.output().length;
      agent.write("/call mcp_notes_ask {}\r");
      await agent.waitFor(/Name \(required\)/, { from: mark });
      agent.write(CTRL_C);
      await agent.waitFor(/declined; nothing was sent to notes/, { from: mark });
      await agent.waitFor(/answer: decline/, { from: mark });

      mark = agent.output().length;
      agent.write("/call mcp_notes_ask_url {}\r");
      await agent.waitFor(
        new RegExp(
          `MCP server "notes"${during("ask_url")} asks you to open a page:\\s+Sign in to the fixture\\s+https://example\\.com/fixture-sign-in`,
        ),
        {
          from: mark,
        },
      );
      await agent.waitFor(/Open it in your browser\? \[y\/N\]/, { from: mark });
      agent.write("y\r");
      await agent.waitFor(/open this address by hand:\s+https:\/\/example\.com\/fixture-sign-in/, {
        from: mark,
      });
      await agent.waitFor(/answer: accept/, { from: mark });

      agent.write("/quit\r");
      await agent.exited;
    },
  );

  it.each(["legacy", "modern"] as const)(
    "without a terminal declines, unless --elicitation accept-defaults fills a form with its defaults (%s era)",
    async (era) => {
      // A 2026-07-28 elicitation comes with the call that asks; a 2025 one does not.
      const during = (tool: string) => (era === "modern" ? `, while running its tool "${tool}",` : "");
      const config = await notesConfig(sandbox, era);
      const base = ["--config", config, "--cache", "memory:", "--model", "offline"];
      const declined = await runAgent([...base, "--exec", '/call mcp_notes_ask {"optional": true}'], sandbox);
      expect(declined.stdout).toContain(`MCP server "notes"${during("ask")} asked: Who are you?`);
      expect(declined.stdout).toContain("declined (no terminal to ask on; --elicitation accept-defaults");
      expect(declined.stdout).toContain("answer: decline");

      const accepted = await runAgent(
        [
          ...base,
          "--elicitation",
          "accept-defaults",
          "--exec",
          '/call mcp_notes_ask {"optional": true}',
          "--exec",
          "/call mcp_notes_ask {}",
        ],
        sandbox,
      );
      expect(accepted.stdout).toContain('answer: accept {"color":"green","ok":true}');
      // A required field without a default cannot be filled in by defaults: declined.
      expect(accepted.stdout).toMatch(/Who are you\?\n\s+declined[\s\S]*answer: decline/);
    },
  );
});
