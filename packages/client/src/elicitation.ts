import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/client";
import { askingCall } from "./asking-call.js";
import {
  applyElicitationDefaults,
  checkElicitationContent,
  type ElicitationHandler,
  type MCPElicitationCall,
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
 * The most rounds of one `input_required` request (2026-07-28) that the
 * client answers before it gives up with `LIMIT_EXCEEDED`: the SDK's own
 * default, said here so the error can name it.
 */
export const MAX_INPUT_ROUNDS = 10;

/**
 * What the client could not answer in an `input_required` round (a handler
 * that answered nothing usable, a form answer that does not fit): the round
 * has no error to send back, so the request fails with it instead.
 */
export class InputRequestError extends Error {
  override readonly name = "InputRequestError";
}

/**
 * Answers one elicitation embedded in an `input_required` result, on a
 * modern connection: as {@link answerElicitation}, but what it cannot
 * answer is an {@link InputRequestError}, and it gives up when `signal`
 * aborts (the request's abort or time limit) even if `handler` goes on
 * waiting for the user.
 */
export function answerEmbeddedElicitation(
  server: string,
  params: RawParams,
  handler: ElicitationHandler,
  signal: AbortSignal,
): Promise<MCPElicitationResult> {
  if (signal.aborted) return Promise.reject(signal.reason);
  const call = askingCall();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    answerElicitation(server, params, handler, signal, call)
      .then(resolve, (error: unknown) =>
        reject(error instanceof ProtocolError ? new InputRequestError(error.message) : error),
      )
      .finally(() => signal.removeEventListener("abort", onAbort));
  });
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
  call?: MCPElicitationCall,
): Promise<MCPElicitationResult> {
  const mode = params.mode ?? "form";
  const request: MCPElicitationRequest = { server, mode, message: params.message };
  if (call) request.call = call;
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
