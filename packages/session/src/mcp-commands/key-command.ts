import { errorMessage } from "@mcp-rt/config/util";
import { McpRtError } from "@mcp-rt/manager";
import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { parseNameArgs } from "../mcp-command-args.js";
import { failure, type MCPCommandResult, ok } from "../mcp-command-result.js";
import { notRunning } from "./not-running.js";

/**
 * `/mcp key <name>`: reads the API key of a server configured with
 * `auth: { type: "apikey", credentialId }` without echoing it, stores it,
 * and starts the server with it.
 */
export const keyCommand: MCPCommand<string> = {
  name: "key",
  usage: "/mcp key <name>",
  description: "store a server's API key (typed without echo) and start it",
  parse: parseNameArgs,
  run: storeKey,
};

async function storeKey({
  ctx,
  input: name,
  readSecret,
  signal,
}: MCPCommandCall<string>): Promise<MCPCommandResult> {
  const unknown = await notRunning(ctx, name);
  if (unknown) return unknown;
  if (!readSecret) {
    return failure({
      code: "USAGE",
      message: `This agent cannot read a key without showing it; store it with \`mcp-rt-config key set <credentialId>\` instead.`,
    });
  }
  let key: string;
  try {
    key = await readSecret(`API key for ${name} (input hidden): `, signal);
  } catch (error) {
    return failure({ code: "ABORTED", message: `No key was stored: ${errorMessage(error)}` });
  }
  try {
    await ctx.manager.setApiKey(name, key);
  } catch (error) {
    if (McpRtError.isInstance(error)) return failure({ code: error.code, message: error.message });
    throw error;
  }
  const bound = AbortSignal.timeout(ctx.connectWaitMs);
  // A failure shows in the state line; this only waits.
  await ctx.manager.waitForConnection(name, { signal: bound }).catch(() => undefined);
  ctx.session.syncMCPTools();
  const { line, state } = ctx.text.stateLine(name);
  return ok(`Key stored for ${name}.\n${line}`, { name, state });
}
