import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/client";
import {
  applyElicitationDefaults,
  checkElicitationContent,
  type ElicitationHandler,
  type MCPElicitationRequest,
  type MCPElicitationResult,
  type MCPElicitationSchema,
} from "./elicitation-form.js";

/** The raw `elicitation/create` params as the SDK validated them. */
interface RawParams {
  mode?: "form" | "url";
  message: string;
  requestedSchema?: MCPElicitationSchema;
  url?: string;
  elicitationId?: string;
}

/**
 * Runs `handler` for one `elicitation/create` request of `server`: the
 * request names the server, the defaults are applied to accepted content,
 * and content that does not fit the requested schema is never sent (the
 * server gets an InvalidParams error saying why).
 */
export async function answerElicitation(
  server: string,
  params: RawParams,
  handler: ElicitationHandler,
  signal: AbortSignal,
): Promise<MCPElicitationResult> {
  const mode = params.mode ?? "form";
  const request: MCPElicitationRequest = { server, mode, message: params.message };
  if (params.requestedSchema) request.requestedSchema = params.requestedSchema;
  if (params.url !== undefined) request.url = params.url;
  if (params.elicitationId !== undefined) request.elicitationId = params.elicitationId;
  const answer = await handler(request, signal);
  const action = answer?.action;
  if (action !== "accept" && action !== "decline" && action !== "cancel") {
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `the client's elicitation handler answered ${JSON.stringify(action)}`,
    );
  }
  if (action !== "accept" || mode === "url") return { action };
  const content = applyElicitationDefaults(params.requestedSchema, answer.content);
  const problem = checkElicitationContent(params.requestedSchema, content);
  if (problem) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `the user's answer does not fit the requested form: ${problem}`,
    );
  }
  return { action, content: content as NonNullable<MCPElicitationResult["content"]> };
}
