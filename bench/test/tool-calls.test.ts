import { describe, expect, it } from "vitest";
import { textOf, timeToolCalls } from "../src/contenders/tool-calls.js";
import type { ToolCallSpec, ToolCallsTask } from "../src/tasks.js";

const specs: ToolCallSpec[] = [
  { server: "everything", tool: "echo", arguments: { message: "hi" }, expect: "Echo: hi" },
  { server: "everything", tool: "get-sum", arguments: { a: 1, b: 2 }, expect: "is 3." },
  { server: "memory", tool: "read_graph", arguments: {}, expect: '"mcp-rt"' },
];

const task = (rounds: number, warmupRounds = 1): ToolCallsTask => ({
  kind: "tool-calls",
  contender: "raw-sdk",
  servers: {},
  cwd: "/",
  calls: specs,
  warmupRounds,
  rounds,
});

const answers: Record<string, string> = {
  echo: "Echo: hi",
  "get-sum": "The sum of 1 and 2 is 3.",
  read_graph: '{ "entities": [{ "name": "mcp-rt" }] }',
};

describe("timeToolCalls (scenario 10's calls)", () => {
  it("makes every call of every round in order and counts the timed ones per server", async () => {
    const made: string[] = [];
    const result = await timeToolCalls("test", task(2), async (spec) => {
      made.push(spec.tool);
      return answers[spec.tool]!;
    });
    expect(made).toEqual(Array.from({ length: 3 }, () => ["echo", "get-sum", "read_graph"]).flat());
    expect(result.calls).toBe(6);
    expect(result.perServer.everything?.calls).toBe(4);
    expect(result.perServer.memory?.calls).toBe(2);
    expect(result.ms).toBeGreaterThanOrEqual(result.perServer.everything!.ms);
  });

  it("fails the run on an answer without its expected text, naming the call", async () => {
    const wrong = timeToolCalls("raw SDK", task(1, 0), async (spec) =>
      spec.tool === "get-sum" ? "The sum of 1 and 2 is 4." : answers[spec.tool]!,
    );
    await expect(wrong).rejects.toThrow(
      /raw SDK: everything\/get-sum answered .*is 4.*expected it to contain "is 3\."/,
    );
  });

  it("reads the text blocks of an answer and skips the others", () => {
    const content = [
      { type: "text", text: "one" },
      { type: "image", data: "…" },
      { type: "text", text: "two" },
    ];
    expect(textOf(content)).toBe("one\ntwo");
  });
});
