import { AsyncLocalStorage } from "node:async_hooks";
import { Client } from "@modelcontextprotocol/client";
import type { MCPElicitationCall } from "./elicitation-form.js";

/** The request whose `input_required` rounds are being answered now. */
const asking = new AsyncLocalStorage<MCPElicitationCall>();

/** What of the originating request names the call: a tool's or prompt's name, a resource's URI. */
function callOf(request: {
  method: string;
  params?: Record<string, unknown> | undefined;
}): MCPElicitationCall | undefined {
  const { method, params } = request;
  const name = method === "resources/read" ? params?.uri : params?.name;
  if (typeof name !== "string") return undefined;
  if (method === "tools/call" || method === "prompts/get" || method === "resources/read")
    return { method, name };
  return undefined;
}

/**
 * The SDK's client, which knows the call a question belongs to. A 2026-07-28
 * server asks inside the result of the request it needs input for
 * (`input_required`); the SDK answers each round through the registered
 * `elicitation/create` handler with a context that no longer names that
 * request, so the rounds run here with it at hand ({@link askingCall}). A
 * 2025-11-25 server asks with a request of its own, which names no call.
 */
export class AskingClient extends Client {
  protected override _resolveNonCompleteResult(
    ...args: Parameters<Client["_resolveNonCompleteResult"]>
  ): Promise<unknown> {
    const call = callOf(args[1].request);
    const resolve = (): Promise<unknown> => super._resolveNonCompleteResult(...args);
    return call ? asking.run(call, resolve) : resolve();
  }
}

/** The call whose `input_required` round is being answered now, when known. */
export function askingCall(): MCPElicitationCall | undefined {
  return asking.getStore();
}
