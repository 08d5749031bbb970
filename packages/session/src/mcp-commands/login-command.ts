import { plural } from "@mcp-rt/config/util";
import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { parseNameArgs } from "../mcp-command-args.js";
import { type MCPCommandResult, ok } from "../mcp-command-result.js";
import { notRunning } from "./not-running.js";

/** `/mcp login <name>`: the browser sign-in of a remote server, then its connection. */
export const loginCommand: MCPCommand<string> = {
  name: "login",
  usage: "/mcp login <name>",
  description: "sign in to a remote server (OAuth, in the browser) and connect it",
  parse: parseNameArgs,
  run: login,
};

/** `/mcp logout <name>`: deletes the server's stored sign-in and closes its connection. */
export const logoutCommand: MCPCommand<string> = {
  name: "logout",
  usage: "/mcp logout <name>",
  description: "delete a remote server's sign-in and disconnect it",
  parse: parseNameArgs,
  run: logout,
};

async function login({ ctx, input: name, signal }: MCPCommandCall<string>): Promise<MCPCommandResult> {
  const unknown = await notRunning(ctx, name);
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

async function logout({ ctx, input: name }: MCPCommandCall<string>): Promise<MCPCommandResult> {
  const unknown = await notRunning(ctx, name);
  if (unknown) return unknown;
  const found = await ctx.manager.logout(name);
  ctx.session.syncMCPTools();
  const text = found
    ? `🔒 ${name}: signed out; its tokens and client registration are deleted. /mcp login ${name} signs in again.`
    : `🔒 ${name} had no stored sign-in; it is disconnected until /mcp login ${name}.`;
  return ok(text, { name, signedOut: found });
}
