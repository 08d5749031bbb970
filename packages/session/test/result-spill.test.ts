import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { CustomTool, ToolResult } from "@mcp-rt/manager";
import { fixtureServer } from "@mcp-rt/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { READ_RESOURCE_NAME } from "../src/resource-tools.js";
import { READ_RESULT_NAME, type SpilledResultDetails } from "../src/result-spill.js";
import { createWorld, type World } from "./helpers.js";

// What the fixture's `huge` tool returns: this pattern, repeated and cut to length.
const PATTERN = "abcdefghijklmnopqrstuvwxyz0123456789";
const huge = (chars: number): string => PATTERN.repeat(Math.ceil(chars / PATTERN.length)).slice(0, chars);
const textOf = (result: ToolResult): string =>
  result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.cleanup();
});

async function start(options: Parameters<World["start"]>[0] = {}) {
  await world.write(world.userFile, { mcpServers: { big: fixtureServer({ hugeTool: true }) } });
  const { session } = await world.start(options);
  const find = (name: string): CustomTool | undefined =>
    session.activeTools().find((tool) => tool.name === name);
  expect(find("mcp_big_huge")).toBeDefined();
  return { session, find, call: (bytes: number) => find("mcp_big_huge")!.execute("1", { bytes }) };
}

describe("resultSpill: long text results as files the model can read", () => {
  it("a megabyte of text: a small result for the model, the rest readable page by page, nothing left after dispose", async () => {
    const { session, find, call } = await start();
    expect(find(READ_RESULT_NAME)).toBeUndefined();

    const result = await call(1_000_000);
    const shown = textOf(result);
    expect(shown.length).toBeLessThan(10_000);
    const whole = huge(1_000_000);
    expect(shown.startsWith(whole.slice(0, 4000))).toBe(true);
    expect(shown.endsWith(whole.slice(-4000))).toBe(true);
    expect(shown).toContain("this result has 1000000 characters");
    expect(shown).toContain(`${READ_RESULT_NAME} {"id":"result-1","offset":4000,"limit":20000}`);
    const { spill } = result.details as SpilledResultDetails;
    expect(spill).toMatchObject({ id: "result-1", chars: 1_000_000 });
    expect(result.details).not.toHaveProperty("uncutContent");

    // The file and its folder are private.
    const folder = dirname(spill.path);
    expect(dirname(folder)).toBe(join(world.root, "results"));
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    expect((await stat(spill.path)).mode & 0o777).toBe(0o600);

    // Registered with the first spilled result, and sent to the model.
    const read = find(READ_RESULT_NAME);
    expect(read).toBeDefined();
    expect(session.modelTools().visible()).toContain(read);

    // Page by page, following what each page says: the whole text, in order.
    let text = "";
    let offset = 0;
    let pages = 0;
    for (;;) {
      const page = await read!.execute(`p${pages}`, { id: "result-1", offset, limit: 40_000 });
      pages += 1;
      expect(page.isError).toBeUndefined();
      const [body] = page.content;
      text += body?.type === "text" ? body.text : "";
      const next = /"offset":(\d+)\}\]$/.exec(textOf(page));
      if (!next) {
        expect(textOf(page)).toContain('the end of result "result-1"');
        break;
      }
      offset = Number(next[1]);
      expect(offset).toBe(text.length);
    }
    expect(pages).toBe(25);
    expect(text === whole).toBe(true);
    // No page is longer than the threshold, whatever the model asks for.
    const capped = await read!.execute("big", { id: "result-1", offset: 10, limit: 500_000 });
    expect(capped.content[0]).toEqual({ type: "text", text: whole.slice(10, 40_010) });
    expect((await read!.execute("x", { id: "result-9" })).isError).toBe(true);
    expect((await read!.execute("x", { id: "result-1", offset: 1_000_000 })).isError).toBe(true);

    await session.dispose();
    expect(existsSync(folder)).toBe(false);
    expect(session.registry.list().map((tool) => tool.name)).not.toContain(READ_RESULT_NAME);
  });

  it("leaves results within the threshold as they are, and keeps what resultCharLimit cut", async () => {
    const { find, call } = await start({ manager: { resultCharLimit: 5000 } });
    expect(textOf(await call(3000))).toBe(huge(3000));
    expect(find(READ_RESULT_NAME)).toBeUndefined();

    // 20 000 characters are within the threshold, but past the manager's limit: spilled whole, not cut.
    const result = await call(20_000);
    expect(textOf(result)).not.toContain("output truncated");
    expect(textOf(result).length).toBeLessThanOrEqual(5000 + 400);
    const page = await find(READ_RESULT_NAME)!.execute("1", { id: "result-1" });
    expect(page.content[0]).toEqual({ type: "text", text: huge(20_000) });
  });

  it("resultSpill: false cuts at resultCharLimit, as before, and writes nothing", async () => {
    const { find, call } = await start({ resultSpill: false, manager: { resultCharLimit: 5000 } });
    const text = textOf(await call(100_000));
    expect(text).toContain("[output truncated: 95000 of 100000 characters cut");
    expect(find(READ_RESULT_NAME)).toBeUndefined();
    expect(existsSync(join(world.root, "results"))).toBe(false);
  });

  it("a smaller thresholdChars spills smaller results; a long resource read spills too", async () => {
    await world.write(world.userFile, {
      mcpServers: { big: fixtureServer({ hugeTool: true, hugeResource: 50_000 }) },
    });
    const { session } = await world.start({
      resultSpill: { dir: join(world.root, "results"), thresholdChars: 1000, previewChars: 200 },
    });
    const find = (name: string) => session.activeTools().find((tool) => tool.name === name);
    const shown = textOf(await find("mcp_big_huge")!.execute("1", { bytes: 2000 }));
    expect(shown.startsWith(`${huge(100)}\n\n[mcp-rt: this result has 2000 characters`)).toBe(true);
    await expect.poll(() => find(READ_RESOURCE_NAME)).toBeDefined();
    const resource = await find(READ_RESOURCE_NAME)!.execute("2", { server: "big", uri: "fixture://huge" });
    expect((resource.details as SpilledResultDetails).spill).toMatchObject({ id: "result-2" });
    const page = await find(READ_RESULT_NAME)!.execute("3", { id: "result-2", offset: 0, limit: 5000 });
    // A page is at most thresholdChars long.
    expect(page.content[0]).toMatchObject({ text: expect.stringMatching(/^\[resource fixture:\/\/huge/) });
    expect((page.content[0] as { text: string }).text).toHaveLength(1000);
  });

  it("sweeps what crashed runs left at the next start, and leaves live sessions' folders", async () => {
    const results = join(world.root, "results");
    // A process that has ended: its pid is free (until the OS reuses it).
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    }).stdout;
    const alive = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    try {
      const crashed = join(results, `session-${dead}-abcDEF`);
      const live = join(results, `session-${alive.pid}-abcDEF`);
      const other = join(results, "not-a-session");
      // As sessions make them: the parent and each session's folder private to this user (0700).
      await mkdir(results, { mode: 0o700 });
      for (const folder of [crashed, live, other]) {
        await mkdir(folder, { mode: 0o700 });
        await writeFile(join(folder, "result-1.txt"), "left over");
      }
      const { session } = await start();
      await expect.poll(() => existsSync(crashed)).toBe(false);
      await session.dispose();
      expect((await readdir(results)).sort()).toEqual(["not-a-session", `session-${alive.pid}-abcDEF`]);
    } finally {
      alive.kill("SIGKILL");
      await once(alive, "exit");
    }
  });
});
