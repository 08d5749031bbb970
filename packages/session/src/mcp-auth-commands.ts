import { errorMessage, plural } from "@mcp-rt/config/util";
import { McpRtError } from "@mcp-rt/manager";
import type { MCPCommandContext } from "./mcp-command-context.js";
import { failure, type MCPCommandResult, ok } from "./mcp-command-result.js";

/** Whether `name` is a server this session's manager knows; the failure to answer otherwise. */
async function knownServer(ctx: MCPCommandContext, name: string): Promise<MCPCommandResult | undefined> {
  if (ctx.manager.getServerStates().some((state) => state.name === name)) return undefined;
  const discovery = await ctx.discover();
  const known = ctx.knownNames(discovery);
  if (!known.includes(name)) return ctx.unknownServer(name, known);
  const why = ctx.whyNotStarted(name, discovery) ?? `${name} is not started by this session`;
  return failure("NOT_CONNECTED", `${name} is not running: ${why.replace(/^\S+ /, "")}`);
}

/** `/mcp login <name>`: the browser sign-in of a remote server, then its connection. */
export async function loginCommand(
  ctx: MCPCommandContext,
  name: string,
  signal?: AbortSignal,
): Promise<MCPCommandResult> {
  const unknown = await knownServer(ctx, name);
  if (unknown) return unknown;
  const wasConnected = ctx.manager.getConnectionStatus(name) === "connected";
  await ctx.manager.login(name, signal ? { signal } : {});
  ctx.session.syncMCPTools();
  const status = await ctx.manager.signInStatus(name);
  const who = status?.account ? ` as ${status.account}` : "";
  const at = status ? ` at ${status.issuer}` : "";
  const tools = ctx.manager.getServerStates().find((state) => state.name === name)?.toolCount ?? 0;
  const text = wasConnected
    ? `● ${name} is connected already${status?.signedIn ? `, signed in${who}${at}` : ""}.`
    : `● ${name}: signed in${who}${at}; connected, ${plural(tools, "tool")}.`;
  return ok(text, { name, signIn: status, toolCount: tools });
}

/** `/mcp logout <name>`: deletes the server's stored sign-in and closes its connection. */
export async function logoutCommand(ctx: MCPCommandContext, name: string): Promise<MCPCommandResult> {
  const unknown = await knownServer(ctx, name);
  if (unknown) return unknown;
  const found = await ctx.manager.logout(name);
  ctx.session.syncMCPTools();
  const text = found
    ? `🔒 ${name}: signed out; its tokens and client registration are deleted. /mcp login ${name} signs in again.`
    : `🔒 ${name} had no stored sign-in; it is disconnected until /mcp login ${name}.`;
  return ok(text, { name, signedOut: found });
}

/**
 * `/mcp key <name>`: reads the API key of a server configured with
 * `auth: { type: "apikey", credentialId }` without echoing it, stores it,
 * and starts the server with it.
 */
export async function keyCommand(
  ctx: MCPCommandContext,
  name: string,
  readSecret: ((prompt: string, signal?: AbortSignal) => Promise<string>) | undefined,
  signal?: AbortSignal,
): Promise<MCPCommandResult> {
  const unknown = await knownServer(ctx, name);
  if (unknown) return unknown;
  if (!readSecret) {
    return failure(
      "USAGE",
      `This agent cannot read a key without showing it; store it with \`mcp-rt-config key set <credentialId>\` instead.`,
    );
  }
  let key: string;
  try {
    key = await readSecret(`API key for ${name} (input hidden): `, signal);
  } catch (error) {
    return failure("ABORTED", `No key was stored: ${errorMessage(error)}`);
  }
  try {
    await ctx.manager.setApiKey(name, key);
  } catch (error) {
    if (McpRtError.isInstance(error)) return failure(error.code, error.message);
    throw error;
  }
  const bound = AbortSignal.timeout(ctx.connectWaitMs);
  // A failure shows in the state line; this only waits.
  await ctx.manager.waitForConnection(name, { signal: bound }).catch(() => undefined);
  ctx.session.syncMCPTools();
  const { line, state } = ctx.stateLine(name);
  return ok(`Key stored for ${name}.\n${line}`, { name, state });
}
