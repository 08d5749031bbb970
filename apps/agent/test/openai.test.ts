import { writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, createSandbox, runAgent, type Sandbox, waitForNoProcesses } from "./agent-process.js";

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist",
  "index.js",
);

interface ChatRequest {
  authorization: string | undefined;
  body: {
    model: string;
    messages: Array<{ role: string; content: string | null; tool_call_id?: string; tool_calls?: unknown[] }>;
    tools?: Array<{
      type: string;
      function: { name: string; description: string; parameters: { type?: string } };
    }>;
  };
}

const toolCall = (id: string, name: string, args: object) => ({
  choices: [
    {
      message: {
        role: "assistant",
        content: null,
        tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }],
      },
      finish_reason: "tool_calls",
    },
  ],
});
const answer = (content: string) => ({
  choices: [{ message: { role: "assistant", content }, finish_reason: "stop" }],
});

async function readBody(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
}

/**
 * A chat-completions server scripted by the user's last message: "two calls"
 * makes the model call echo, then get-sum, then answer with what the tools
 * said; "search" calls mcp_tool_search, then the get-sum it found; "loop"
 * calls echo forever; "deny" answers 401.
 */
function script(request: ChatRequest["body"]): { status: number; body: unknown } {
  const lastUser = [...request.messages].reverse().find((message) => message.role === "user")?.content ?? "";
  const sinceUser = request.messages.slice(
    request.messages.findLastIndex((message) => message.role === "user") + 1,
  );
  const toolResults = sinceUser.filter((message) => message.role === "tool");
  if (lastUser.includes("deny"))
    return { status: 401, body: { error: { message: "Incorrect API key provided" } } };
  if (lastUser.includes("loop")) {
    return {
      status: 200,
      body: toolCall(`loop_${toolResults.length}`, "mcp_everything_echo", { message: "again" }),
    };
  }
  if (lastUser.includes("search") && toolResults.length === 0) {
    return { status: 200, body: toolCall("call_search", "mcp_tool_search", { query: "sum of two numbers" }) };
  }
  if (toolResults.length === 0) {
    return { status: 200, body: toolCall("call_echo", "mcp_everything_echo", { message: "first tool" }) };
  }
  if (toolResults.length === 1) {
    return { status: 200, body: toolCall("call_sum", "mcp_everything_get_sum", { a: 2, b: 3 }) };
  }
  return {
    status: 200,
    body: answer(`Final answer: ${toolResults.map((message) => message.content).join(" | ")}`),
  };
}

describe("--model openai against a local OpenAI-compatible server", () => {
  let sandbox: Sandbox;
  let server: Server;
  let baseUrl: string;
  const requests: ChatRequest[] = [];

  beforeAll(() => assertBuilt());
  beforeEach(async () => {
    sandbox = await createSandbox();
    requests.length = 0;
    server = createServer(async (request, response) => {
      const body = JSON.parse(await readBody(request)) as ChatRequest["body"];
      if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
        response.writeHead(404).end();
        return;
      }
      requests.push({ authorization: request.headers.authorization, body });
      const { status, body: reply } = script(body);
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(reply));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await waitForNoProcesses(sandbox.marker)).toEqual([]);
    await sandbox.cleanup();
  });

  async function run(lines: string[], flags: string[] = []) {
    const config = join(sandbox.root, "everything.json");
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything] } } }),
    );
    return runAgent(
      [
        "--config",
        config,
        "--cache",
        "memory:",
        "--model",
        "openai",
        "--model-name",
        "test-model",
        ...flags,
        ...lines.flatMap((line) => ["--exec", line]),
      ],
      sandbox,
      { env: { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "test-key" } },
    );
  }

  it("runs two tool calls the model asks for, feeds their results back, and prints the final answer", async () => {
    const result = await run(["use two calls please"]);
    expect(result.code).toBe(0);
    expect(requests).toHaveLength(3);
    const [first, second, third] = requests;
    expect(first!.authorization).toBe("Bearer test-key");
    expect(first!.body.model).toBe("test-model");
    const echo = first!.body.tools?.find((tool) => tool.function.name === "mcp_everything_echo");
    expect(echo?.function.parameters.type).toBe("object");
    expect(echo?.function.description).toBe("Echoes back the input string");
    // The servers' instructions go into the system message, and the resource tools come with the MCP tools.
    expect(first!.body.messages[0]?.role).toBe("system");
    expect(first!.body.messages[0]?.content).toMatch(
      /^You are a coding agent[\s\S]*\n\nInstructions from MCP server "everything" \(the server's own words about its tools\):\n/,
    );
    expect(first!.body.tools?.map((tool) => tool.function.name)).toEqual(
      expect.arrayContaining(["mcp_list_resources", "mcp_read_resource"]),
    );
    expect(second!.body.messages.at(-1)).toMatchObject({
      role: "tool",
      tool_call_id: "call_echo",
      content: "Echo: first tool",
    });
    expect(third!.body.messages.at(-2)).toMatchObject({
      role: "assistant",
      tool_calls: [{ id: "call_sum" }],
    });
    expect(third!.body.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_sum" });
    expect(third!.body.messages.at(-1)!.content).toBe("The sum of 2 and 3 is 5.");
    expect(result.stdout).toContain("model: openai (test-model at");
    expect(result.stdout).toContain("→ mcp_everything_echo");
    expect(result.stdout).toContain("→ mcp_everything_get_sum");
    expect(result.stdout).toContain("Final answer: Echo: first tool | The sum of 2 and 3 is 5.");
  });

  it("attaches @server:uri resources to the user's message; /prompt sends the prompt's messages", async () => {
    const result = await run([
      "summarise @everything:demo://resource/dynamic/text/1 please",
      '/prompt everything args-prompt {"city": "Lisbon"}',
    ]);
    expect(result.code).toBe(0);
    const user = requests[0]!.body.messages.at(-1);
    expect(user?.role).toBe("user");
    expect(user?.content).toMatch(
      /^summarise @everything:demo:\/\/resource\/dynamic\/text\/1 please\n\n<attachment server="everything" uri="demo:\/\/resource\/dynamic\/text\/1">\n\[resource demo:\/\/resource\/dynamic\/text\/1 \(text\/plain\)\]\n/,
    );
    expect(result.stdout).toMatch(/@everything:demo:\/\/resource\/dynamic\/text\/1 attached/);
    const prompted = requests.find(
      (request) => request.body.messages.at(-1)?.content === "What's weather in Lisbon?",
    );
    expect(prompted?.body.messages.at(-1)?.role).toBe("user");
  });

  it("stops a model that never answers at the step limit, reports a refused key, and keeps the conversation usable", async () => {
    const result = await run(["loop forever", "deny me", "now two calls"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("The model made 8 requests without a final answer; stopped.");
    expect(result.stdout).toMatch(
      /model request failed: .* answered 401: Incorrect API key provided; check OPENAI_API_KEY/,
    );
    expect(result.stdout).toMatch(/Final answer: Echo: first tool/);
    // The failed turns left nothing behind: the last turn starts from the system prompt and its own message.
    const last = requests.at(-1)!.body.messages;
    expect(last.filter((message) => message.role === "user").map((message) => message.content)).toEqual([
      "now two calls",
    ]);
  });

  it("with tool search on, sends mcp_tool_search first and the schemas it loaded on the next requests", async () => {
    const result = await run(["search for a tool, then use it"], ["--tool-search", "on"]);
    expect(result.code).toBe(0);
    expect(requests).toHaveLength(3);
    const names = (request: ChatRequest) => (request.body.tools ?? []).map((tool) => tool.function.name);
    // The resource tools are the session's own, not a server's: tool search does not hide them.
    expect(names(requests[0]!)).toEqual(["mcp_list_resources", "mcp_read_resource", "mcp_tool_search"]);
    const search = requests[0]!.body.tools!.find(
      (tool) => tool.function.name === "mcp_tool_search",
    )!.function;
    expect(search.parameters).toMatchObject({ type: "object", required: ["query"] });
    expect(search.description).toContain("everything (");
    // The search answered with the tool, and its full schema went out with the next request.
    expect(requests[1]!.body.messages.at(-1)!.content).toContain("- mcp_everything_get_sum (everything)");
    expect(names(requests[1]!)).toContain("mcp_everything_get_sum");
    expect(names(requests[1]!).at(-1)).toBe("mcp_tool_search");
    const sum = requests[1]!.body.tools!.find((tool) => tool.function.name === "mcp_everything_get_sum");
    expect(sum!.function.parameters).toMatchObject({ type: "object", properties: { a: {}, b: {} } });
    expect(names(requests[2]!)).toEqual(names(requests[1]!));
    expect(result.stdout).toContain("→ mcp_tool_search");
    expect(result.stdout).toContain("The sum of 2 and 3 is 5.");
  });
});
