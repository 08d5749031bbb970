import { type Client, type ListToolsResult, ProtocolErrorCode } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import {
  crashOnCallServer,
  fixtureServer,
  hugeOutputServer,
  listChangingServer,
  manyToolsServer,
  slowCallServer,
  waitForProcessExit,
} from "../src/index.js";
import { closeSessionsAfterEach, connectStdio, handshake, rpc, runToExit, textOf } from "./helpers.js";

closeSessionsAfterEach();

/** One page of `tools/list`, as the server sent it (the SDK's `listTools()` would walk them all). */
function listPage(client: Client, cursor?: string): Promise<ListToolsResult> {
  return client.request({ method: "tools/list", params: cursor === undefined ? {} : { cursor } });
}

describe("tool listing", () => {
  it("manyToolsServer pages tools/list with nextCursor", async () => {
    const { client } = await connectStdio(manyToolsServer(25, { pageSize: 10 }));
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await listPage(client, cursor);
      pages.push(page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(pages.map((page) => page.length)).toEqual([10, 10, 6]);
    expect(pages.flat()).toEqual(["echo", ...Array.from({ length: 25 }, (_, i) => `tool_${i}`)]);
    expect(textOf(await client.callTool({ name: "tool_24", arguments: { input: "x" } }))).toBe("tool_24: x");
  });

  it("manyToolsServer without a page size lists everything at once", async () => {
    const { client } = await connectStdio(manyToolsServer(300));
    const page = await client.listTools();
    expect(page.tools.length).toBe(301);
    expect(page.nextCursor).toBeUndefined();
  });

  it("rejects an unknown cursor with InvalidParams", async () => {
    const { client } = await connectStdio(manyToolsServer(5, { pageSize: 2 }));
    await expect(listPage(client, "nonsense")).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
    });
  });

  it("cursorLoop returns the same nextCursor forever", async () => {
    const { client } = await connectStdio(fixtureServer({ tools: 3, pageSize: 2, cursorLoop: true }));
    const first = await listPage(client);
    const second = await listPage(client, first.nextCursor);
    expect(first.nextCursor).toBe("loop");
    expect(second.nextCursor).toBe("loop");
    expect(second.tools.map((tool) => tool.name)).toEqual(first.tools.map((tool) => tool.name));
  });

  it("listChangingServer adds and removes tools and notifies", async () => {
    const { client } = await connectStdio(listChangingServer());
    let notifications = 0;
    let notified: () => void = () => {};
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      notifications++;
      notified();
    });
    const nextNotification = (): Promise<void> => new Promise((resolve) => (notified = resolve));
    const names = async (): Promise<string[]> => (await client.listTools()).tools.map((tool) => tool.name);
    expect(await names()).toEqual(["echo", "add_tool", "remove_tool"]);

    let change = nextNotification();
    expect(textOf(await client.callTool({ name: "add_tool", arguments: { name: "fresh" } }))).toBe(
      "added fresh",
    );
    await change;
    expect(await names()).toContain("fresh");
    expect(textOf(await client.callTool({ name: "fresh", arguments: {} }))).toBe("fresh called");

    const duplicate = await client.callTool({ name: "add_tool", arguments: { name: "fresh" } });
    expect(duplicate.isError).toBe(true);

    change = nextNotification();
    await client.callTool({ name: "remove_tool", arguments: { name: "fresh" } });
    await change;
    expect(await names()).not.toContain("fresh");
    expect((await client.callTool({ name: "remove_tool", arguments: { name: "fresh" } })).isError).toBe(true);
    expect(notifications).toBe(2);
  });
});

describe("tool calls", () => {
  it("crashOnCallServer dies in the middle of a crash call", async () => {
    const session = await connectStdio(crashOnCallServer());
    expect((await session.client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo", "crash"]);
    const pid = session.transport.pid!;
    await expect(session.client.callTool({ name: "crash", arguments: {} })).rejects.toThrow(/closed/i);
    expect(await waitForProcessExit(pid)).toBe(true);
    expect(session.stderr()).toContain("crashing during tools/call");
  });

  it("slowCallServer sends one progress notification per step, then the result", async () => {
    const call = rpc({
      id: 1,
      method: "tools/call",
      params: { name: "slow", arguments: { ms: 200, steps: 4 }, _meta: { progressToken: "p" } },
    });
    const result = await runToExit(slowCallServer(), handshake + call, 2000);
    const messages = result.stdout
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => JSON.parse(line));
    expect(
      messages.slice(0, 4).map((m) => [m.method, m.params.progressToken, m.params.progress, m.params.total]),
    ).toEqual([1, 2, 3, 4].map((step) => ["notifications/progress", "p", step, 4]));
    expect(messages[4]).toMatchObject({
      id: 1,
      result: { content: [{ text: "slow done: 200 ms in 4 steps" }] },
    });
  });

  it("slowCallServer reports progress to an SDK client", async () => {
    const { client } = await connectStdio(slowCallServer());
    const progress: number[] = [];
    const result = await client.callTool(
      { name: "slow", arguments: { ms: 300, steps: 4 } },
      {
        onprogress: ({ progress: value, total }) => {
          expect(total).toBe(4);
          progress.push(value);
        },
      },
    );
    expect(textOf(result)).toBe("slow done: 300 ms in 4 steps");
    // The SDK client handles notifications a tick later than responses, so it
    // may drop the last ones; the test above shows the server sends all four.
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it("slowCallServer stops when the call is cancelled", async () => {
    const session = await connectStdio(slowCallServer());
    const controller = new AbortController();
    const call = session.client.callTool(
      { name: "slow", arguments: { ms: 10_000, steps: 100 } },
      {
        signal: controller.signal,
        onprogress: ({ progress }) => {
          if (progress === 2) controller.abort();
        },
      },
    );
    await expect(call).rejects.toThrow();
    await expect
      .poll(() => session.stderr(), { timeout: 5000 })
      .toMatch(/slow cancelled after \d+ of 100 steps/);
    expect(
      textOf(await session.client.callTool({ name: "echo", arguments: { message: "still here" } })),
    ).toBe("still here");
  });

  it("hugeOutputServer returns exactly the requested number of characters", async () => {
    const { client } = await connectStdio(hugeOutputServer());
    expect(textOf(await client.callTool({ name: "huge", arguments: { bytes: 3_000_000 } })).length).toBe(
      3_000_000,
    );
    expect(textOf(await client.callTool({ name: "huge", arguments: {} })).length).toBe(1_000_000);
    expect(textOf(await client.callTool({ name: "huge", arguments: { bytes: 0 } }))).toBe("");
  });
});
