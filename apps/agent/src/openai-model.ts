import { errorMessage } from "@mcp-rt/config/util";
import { type ModelToolDefinition, type ModelTools, modelToolDefinition } from "@mcp-rt/session";
import type { Model, ModelTurn } from "./model.js";
import {
  type ChatAssistantMessage,
  type ChatMessage,
  chatErrorMessage,
  parseChatCompletion,
} from "./openai-wire.js";
import { resultText } from "./tool-runner.js";

/** Options of {@link createOpenAIModel}. */
export interface OpenAIModelOptions {
  /** The server's base URL, up to `/v1`. @default "https://api.openai.com/v1" */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer …`; local servers (Ollama, llama.cpp) often need none. */
  apiKey?: string;
  /** The model name, e.g. `gpt-4o-mini`, `qwen2.5:7b`. */
  model: string;
  /** Model requests per turn before the loop gives up. @default 8 */
  maxSteps?: number;
  /** Per request. @default 120000 */
  requestTimeoutMs?: number;
  /** Goes into the system prompt. */
  cwd: string;
}

/** A failed request: what happened and what to change. */
class ModelRequestError extends Error {}

/**
 * A tool-calling loop over chat completions, for any OpenAI-compatible server
 * (OpenAI, Ollama, vLLM, llama.cpp): each request carries the conversation's
 * tools as the session gives them (every tool, or with tool search on the
 * loaded ones and `mcp_tool_search`, so a search in one step loads schemas
 * for the next), tool calls run through the session's tools, their results go back,
 * until the model answers or `maxSteps` requests were made. Plain `fetch`,
 * responses checked with zod. The conversation is kept across turns; a turn
 * that fails or is aborted leaves no trace in it.
 */
export function createOpenAIModel(options: OpenAIModelOptions): Model {
  const baseUrl = (options.baseUrl ?? "https://api.openai.com/v1").replace(/\/+$/, "");
  const endpoint = `${baseUrl}/chat/completions`;
  const maxSteps = options.maxSteps ?? 8;
  const basePrompt = `You are a coding agent running on mcp-rt. The working folder is ${options.cwd}. Use the tools when they help; answer briefly.`;
  const history: ChatMessage[] = [{ role: "system", content: basePrompt }];

  async function complete(
    messages: ChatMessage[],
    tools: ModelToolDefinition[],
    signal: AbortSignal,
  ): Promise<ChatAssistantMessage> {
    const body = {
      model: options.model,
      messages,
      ...(tools.length > 0 ? { tools, tool_choice: "auto" } : {}),
    };
    const timeout = AbortSignal.timeout(options.requestTimeoutMs ?? 120_000);
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.any([signal, timeout]),
      });
    } catch (error) {
      if (signal.aborted) throw error;
      const reason = timeout.aborted ? "no answer within the request timeout" : describeFetchError(error);
      throw new ModelRequestError(
        `${endpoint}: ${reason}; check OPENAI_BASE_URL and that the server is running`,
      );
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const detail = chatErrorMessage(json) ?? text.slice(0, 200);
      const hint =
        response.status === 401 || response.status === 403
          ? "; check OPENAI_API_KEY"
          : response.status === 404
            ? `; check OPENAI_BASE_URL and --model-name (${options.model})`
            : "";
      throw new ModelRequestError(`${endpoint} answered ${response.status}: ${detail}${hint}`);
    }
    const parsed = parseChatCompletion(json);
    if (!parsed.ok) {
      const what = json === undefined ? `not JSON: ${text.slice(0, 120)}` : parsed.error;
      throw new ModelRequestError(`${endpoint} sent an unexpected chat completion (${what})`);
    }
    return parsed.message;
  }

  async function loop(input: string, turn: ModelTurn): Promise<boolean> {
    // The system message follows the servers: one connected since the last turn brings its instructions.
    const system = turn.instructions ? `${basePrompt}\n\n${turn.instructions}` : basePrompt;
    const messages: ChatMessage[] = [
      { role: "system", content: system },
      ...history.slice(1),
      { role: "user", content: input },
    ];
    for (let step = 1; step <= maxSteps; step++) {
      const tools = turn.tools.visible().map(modelToolDefinition);
      const message = await complete(messages, tools, turn.signal);
      const calls = message.tool_calls;
      messages.push({
        role: "assistant",
        content: message.content,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      });
      if (calls.length === 0) {
        turn.output.write("answer", message.content ?? "", { model: options.model, steps: step });
        history.splice(0, history.length, ...messages);
        return true;
      }
      if (message.content)
        turn.output.write("answer", message.content, { model: options.model, partial: true });
      for (const call of calls) {
        messages.push({
          role: "tool",
          tool_call_id: call.id,
          content: await runCall(call, turn.tools, turn),
        });
      }
    }
    turn.output.write(
      "error",
      `The model made ${maxSteps} requests without a final answer; stopped. Ask again more narrowly.`,
      { code: "STEP_LIMIT", maxSteps },
    );
    return false;
  }

  return {
    description: `openai (${options.model} at ${baseUrl}, tool calling)`,
    async respond(input, turn) {
      try {
        return await loop(input, turn);
      } catch (error) {
        if (!(error instanceof ModelRequestError)) throw error;
        turn.output.write("error", `✗ model request failed: ${error.message}`, { code: "MODEL_ERROR" });
        return false;
      }
    },
  };
}

/** Runs one tool call of the model; the text goes back to the model, errors included. */
async function runCall(
  call: { id: string; function: { name: string; arguments: string } },
  tools: ModelTools,
  turn: ModelTurn,
): Promise<string> {
  const tool = tools.find(call.function.name);
  if (!tool) return `Error: there is no tool named "${call.function.name}".`;
  let args: unknown;
  try {
    args = JSON.parse(call.function.arguments || "{}");
  } catch (error) {
    return `Error: the arguments are not valid JSON (${errorMessage(error)}); send a JSON object.`;
  }
  const result = await turn.runTool(tool, args, call.id);
  return resultText(result);
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? errorMessage(error);
}
