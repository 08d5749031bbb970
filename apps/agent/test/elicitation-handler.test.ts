import type { MCPElicitationRequest } from "@mcp-rt/session";
import { describe, expect, it } from "vitest";
import { createElicitationHandler, type QuestionAsker } from "../src/elicitation.js";
import type { Output } from "../src/output.js";

/** An output that keeps what it was told. */
function recordingOutput(): Output & { lines: string[] } {
  const lines: string[] = [];
  return { json: false, lines, write: (_kind, text) => void lines.push(text) } as Output & {
    lines: string[];
  };
}

/** An asker that answers from a script, and records each question. */
function scriptedAsker(answers: string[]): QuestionAsker & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    ask: async (prompt) => {
      asked.push(prompt);
      const answer = answers.shift();
      if (answer === undefined) throw new DOMException("no more answers", "AbortError");
      return answer;
    },
  };
}

const form = (properties: Record<string, unknown>, required: string[] = []): MCPElicitationRequest => ({
  server: "s",
  mode: "form",
  message: "Fill me in",
  requestedSchema: { type: "object", properties, required } as NonNullable<
    MCPElicitationRequest["requestedSchema"]
  >,
});

describe("a confirmation (a form without fields, or with one boolean)", () => {
  const signal = new AbortController().signal;
  const empty = { ...form({}), message: "Run DROP TABLE users on project p?" };
  const yesNo = form({ confirm: { type: "boolean", default: true } }, ["confirm"]);

  it("is a question on a terminal: Accept? [y/N], declined on Enter", async () => {
    for (const request of [empty, yesNo]) {
      const asker = scriptedAsker([""]);
      const output = recordingOutput();
      const handler = createElicitationHandler({ mode: "ask", output, asker: () => asker });
      expect(await handler(request, signal)).toEqual({ action: "decline" });
      expect(asker.asked).toEqual(["  Accept? [y/N] "]);
      expect(output.lines[0]).toContain('MCP server "s" asks you to confirm');
    }
    const emptyYes = createElicitationHandler({
      mode: "ask",
      output: recordingOutput(),
      asker: () => scriptedAsker(["y"]),
    });
    expect(await emptyYes(empty, signal)).toEqual({ action: "accept", content: {} });
    const boolYes = createElicitationHandler({
      mode: "ask",
      output: recordingOutput(),
      asker: () => scriptedAsker(["yes"]),
    });
    expect(await boolYes(yesNo, signal)).toEqual({ action: "accept", content: { confirm: true } });
  });

  it("names the call it belongs to, when the request says it", async () => {
    const output = recordingOutput();
    const during = createElicitationHandler({ mode: "ask", output, asker: () => scriptedAsker([""]) });
    await during({ ...empty, call: { method: "tools/call", name: "execute_sql" } }, signal);
    expect(output.lines[0]).toBe(
      'MCP server "s", while running its tool "execute_sql", asks you to confirm:\n  Run DROP TABLE users on project p?',
    );
    const plain = recordingOutput();
    await createElicitationHandler({ mode: "decline", output: plain, asker: () => undefined })(
      { ...empty, call: { method: "resources/read", name: "db://users" } },
      signal,
    );
    expect(plain.lines[0]).toMatch(/^MCP server "s", while reading db:\/\/users, asked: Run DROP/);
  });

  it("is never accepted without a person: accept-defaults declines it, even with default true", async () => {
    const output = recordingOutput();
    const handler = createElicitationHandler({ mode: "accept-defaults", output, asker: () => undefined });
    expect(await handler(empty, signal)).toEqual({ action: "decline" });
    expect(await handler(yesNo, signal)).toEqual({ action: "decline" });
    expect(output.lines[0]).toContain("a confirmation needs a person");
    // A form with fields and their defaults is still accepted with them.
    const filled = form({ region: { type: "string", default: "eu" } }, ["region"]);
    expect(await handler(filled, signal)).toEqual({ action: "accept", content: {} });
  });
});

describe("the agent's elicitation answers", () => {
  it("takes choices by number or name, lists for multi-select, numbers for numbers, and asks again on a bad answer", async () => {
    const asker = scriptedAsker(["2", "Piano, 1", "x", "7", "yes", "nope@", "a@b.co"]);
    const handler = createElicitationHandler({ mode: "ask", output: recordingOutput(), asker: () => asker });
    const answer = await handler(
      form({
        pick: {
          type: "string",
          oneOf: [
            { const: "a", title: "Alpha" },
            { const: "b", title: "Beta" },
          ],
        },
        many: { type: "array", items: { type: "string", enum: ["Guitar", "Piano"] } },
        count: { type: "integer", minimum: 1, maximum: 9 },
        ok: { type: "boolean" },
        email: { type: "string", format: "email" },
      }),
      new AbortController().signal,
    );
    expect(answer).toEqual({
      action: "accept",
      content: { pick: "b", many: ["Piano", "Guitar"], count: 7, ok: true, email: "a@b.co" },
    });
    expect(asker.asked[0]).toContain("choose one: 1) Alpha  2) Beta");
  });

  it("answers one request at a time: a second one waits for the first", async () => {
    let release!: (answer: string) => void;
    const asked: string[] = [];
    const asker: QuestionAsker = {
      ask: (prompt) => {
        asked.push(prompt);
        return asked.length === 1 ? new Promise((resolve) => (release = resolve)) : Promise.resolve("second");
      },
    };
    const handler = createElicitationHandler({ mode: "ask", output: recordingOutput(), asker: () => asker });
    const field = { name: { type: "string" } };
    const first = handler(form(field), new AbortController().signal);
    const second = handler(form(field), new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked).toHaveLength(1);
    release("first");
    expect(await first).toEqual({ action: "accept", content: { name: "first" } });
    expect(await second).toEqual({ action: "accept", content: { name: "second" } });
  });

  it("declines without an asker, and accepts defaults only when asked to and they fill the form", async () => {
    const output = recordingOutput();
    const none = createElicitationHandler({ mode: "ask", output, asker: () => undefined });
    const withDefault = form({ color: { type: "string", default: "green" } });
    expect(await none(withDefault, new AbortController().signal)).toEqual({ action: "decline" });
    const defaults = createElicitationHandler({ mode: "accept-defaults", output, asker: () => undefined });
    expect(await defaults(withDefault, new AbortController().signal)).toEqual({
      action: "accept",
      content: {},
    });
    const required = form({ name: { type: "string" } }, ["name"]);
    expect(await defaults(required, new AbortController().signal)).toEqual({ action: "decline" });
    expect(output.lines[0]).toMatch(/declined \(no terminal to ask on/);
  });
});
