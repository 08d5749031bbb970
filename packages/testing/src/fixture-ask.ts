import { randomBytes } from "node:crypto";
import {
  type CallToolResult,
  createRequestStateCodec,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";

/** What the fixture carries from one `input_required` round to the next (sealed, so a changed echo fails). */
interface AskState {
  tool: string;
  /** Rounds answered so far. */
  round: number;
  /** The names given in earlier rounds: only the state remembers them, `inputResponses` are per round. */
  names: string[];
}

/**
 * Seals the fixture's `requestState`. One key per process: over HTTP every
 * request gets a fresh server, and the retry must verify on the next one.
 */
export const askStateCodec: RequestStateCodec<AskState> = createRequestStateCodec<AskState>({
  key: randomBytes(32),
});

/** The form of `ask` (both eras). */
export function askForm(optional: boolean): {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required: string[];
} {
  return {
    type: "object",
    properties: {
      name: { type: "string", title: "Name", description: "Your name" },
      color: { type: "string", title: "Colour", enum: ["red", "green", "blue"], default: "green" },
      ok: { type: "boolean", title: "Happy", default: true },
      count: { type: "integer", title: "Count", minimum: 1, maximum: 5 },
    },
    required: optional ? [] : ["name"],
  };
}

/** The page `ask_url` asks the user to open. */
export const ASK_URL = { message: "Sign in to the fixture", url: "https://example.com/fixture-sign-in" };

/** A 2026-07-28 request: it carries the `_meta` envelope (a 2025 one never does). */
export function isModernRequest(ctx: ServerContext): boolean {
  return ctx.mcpReq.envelope !== undefined;
}

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });

/**
 * `ask` in the modern era: the form through `input_required`, `rounds` times
 * (each round's answer sealed into the next `requestState`), then the same
 * text as the legacy tool, with the earlier rounds' names when there were
 * several. A decline or cancel ends it at once.
 */
export async function askModern(
  ctx: ServerContext,
  { optional, rounds }: { optional: boolean; rounds: number },
): Promise<CallToolResult | InputRequiredResult> {
  const state = ctx.mcpReq.requestState<AskState>();
  if (state !== undefined && state.tool !== "ask") throw new Error("requestState of another tool");
  const round = state?.round ?? 0;
  const names = state?.names ?? [];
  if (round > 0) {
    const answer = inputResponse(ctx.mcpReq.inputResponses, "who");
    if (answer.kind !== "elicit")
      throw new Error(`round ${round + 1} of ask came without an answer to "who"`);
    if (answer.action !== "accept") return text(`answer: ${answer.action}`);
    const content = answer.content ?? {};
    if (round >= rounds) {
      const earlier = names.length > 0 ? ` (earlier rounds: ${names.join(", ")})` : "";
      return text(`answer: accept ${JSON.stringify(content)}${earlier}`);
    }
    names.push(String(content.name ?? ""));
  }
  return inputRequired({
    inputRequests: {
      who: inputRequired.elicit({
        message: rounds > 1 ? `Who are you? (round ${round + 1} of ${rounds})` : "Who are you?",
        requestedSchema: askForm(optional) as never,
      }),
    },
    requestState: await askStateCodec.mint({ tool: "ask", round: round + 1, names }),
  });
}

/** `ask_url` in the modern era: the page through `input_required`, then `answer: <action>`. */
export async function askUrlModern(ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> {
  const state = ctx.mcpReq.requestState<AskState>();
  if (state === undefined) {
    return inputRequired({
      inputRequests: { page: inputRequired.elicitUrl(ASK_URL) },
      requestState: await askStateCodec.mint({ tool: "ask_url", round: 1, names: [] }),
    });
  }
  if (state.tool !== "ask_url") throw new Error("requestState of another tool");
  const answer = inputResponse(ctx.mcpReq.inputResponses, "page");
  if (answer.kind !== "elicit") throw new Error('ask_url came back without an answer to "page"');
  return text(`answer: ${answer.action}`);
}
