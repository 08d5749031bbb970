import { lazy, z } from "@mcp-rt/config/util";

/** A tool call of the assistant, as chat completions sends it. */
export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** The assistant's message of a chat completion: text, tool calls, or both. */
export interface ChatAssistantMessage {
  content: string | null;
  tool_calls: ChatToolCall[];
}

/** One message of the conversation, as sent. */
export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

// Built on first use (`lazy`): not on the start path, and never without a model.
const toolCallSchema = (): z.ZodMiniType<ChatToolCall> =>
  z.object({
    id: z.string().check(z.minLength(1)),
    type: z._default(z.literal("function"), "function"),
    function: z.object({
      name: z.string().check(z.minLength(1)),
      arguments: z._default(z.string(), "{}"),
    }),
  }) as z.ZodMiniType<ChatToolCall>;

// Only the fields the loop reads are checked; servers add many others.
const completionSchema = lazy(() =>
  z.object({
    choices: z
      .array(
        z.object({
          message: z.object({
            content: z.nullish(z.string()),
            tool_calls: z.nullish(z.array(toolCallSchema())),
          }),
        }),
      )
      .check(z.minLength(1)),
  }),
);

const errorBodySchema = lazy(() =>
  z.object({
    error: z.union([z.string(), z.object({ message: z.string() })]),
  }),
);

/** `path.to.field: message` for each problem zod found. */
function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(response)"}: ${issue.message}`)
    .join("; ");
}

/** Checks a chat completion body and returns its first choice's message, or what is wrong with it. */
export function parseChatCompletion(
  body: unknown,
): { ok: true; message: ChatAssistantMessage } | { ok: false; error: string } {
  const parsed = completionSchema().safeParse(body);
  if (!parsed.success) return { ok: false, error: describeIssues(parsed.error) };
  const message = parsed.data.choices[0]!.message;
  return { ok: true, message: { content: message.content ?? null, tool_calls: message.tool_calls ?? [] } };
}

/** The message of an error body (`{ error: { message } }` or `{ error: "…" }`), if it is one. */
export function chatErrorMessage(body: unknown): string | undefined {
  const parsed = errorBodySchema().safeParse(body);
  if (!parsed.success) return undefined;
  return typeof parsed.data.error === "string" ? parsed.data.error : parsed.data.error.message;
}
