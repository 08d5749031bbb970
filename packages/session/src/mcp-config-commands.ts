import { redactServerConfig } from "@mcp-rt/config";
import type { AddArgs, RemoveArgs } from "./mcp-command-args.js";
import type { MCPCommandContext } from "./mcp-command-context.js";
import { failure, type MCPCommandResult, ok, usageError } from "./mcp-command-result.js";
import type { ConfigScope } from "./native-config-writer.js";

/** `/mcp enable <name>`: clears what turns it off in the native files, then starts that server only. */
export async function enableCommand(ctx: MCPCommandContext, name: string): Promise<MCPCommandResult> {
  const before = await ctx.discover();
  const known = ctx.knownNames(before);
  if (!known.includes(name)) return ctx.unknownServer(name, known);
  const files = await ctx.keepingTrust("project", () => ctx.writer.enableServer(name));
  const running = ctx.manager.getConnectionStatus(name) !== "disconnected";
  const after = running ? await ctx.discover() : await ctx.start([name]);
  const blocked = ctx.whyNotStarted(name, after);
  const saved =
    files.length > 0
      ? `Enabled ${name} (saved in ${files.map((file) => ctx.show(file)).join(", ")}).`
      : `${name} was not disabled in mcp-rt's config.`;
  if (blocked) return { ok: false, text: `${saved}\n${blocked}`, data: { name, files, started: false } };
  const { line, state } = ctx.stateLine(name);
  return ok(`${saved}\n${line}`, { name, files, started: true, state });
}

/** `/mcp disable <name>`: saved in the native file of the server's level, then stops that server only. */
export async function disableCommand(ctx: MCPCommandContext, name: string): Promise<MCPCommandResult> {
  const discovery = await ctx.discover();
  const known = ctx.knownNames(discovery);
  if (!known.includes(name)) return ctx.unknownServer(name, known);
  const scope: ConfigScope = ctx.sourceOf(name, discovery)?.level ?? "user";
  const already = discovery.disabled.some((entry) => entry.name === name);
  const file = already
    ? undefined
    : await ctx.keepingTrust(scope, () => ctx.writer.disableServer(name, scope));
  const wasRunning = ctx.manager.getConnectionStatus(name) !== "disconnected";
  await ctx.manager.disconnectServer(name);
  ctx.session.syncMCPTools();
  const text = already
    ? `– ${name} is already disabled${wasRunning ? "; stopped it" : ""}.`
    : `– Disabled ${name} (saved in ${ctx.show(file!)})${wasRunning ? "; stopped it" : ""}. Other servers keep running.`;
  return ok(text, { name, file, stopped: wasRunning });
}

/**
 * `/mcp add`: a new entry in a native file, started when it is the one that
 * counts. The result's `config` is redacted: header and env values are `***`.
 */
export async function addCommand(ctx: MCPCommandContext, args: AddArgs): Promise<MCPCommandResult> {
  const before = await ctx.discover();
  const path = await ctx.keepingTrust(args.scope, () =>
    ctx.writer.addServer(args.name, args.config, args.scope),
  );
  const lines = [`Added ${args.name} to ${ctx.show(path)}.`];
  const after = await ctx.discover();
  const winner = after.sources[args.name];
  if (winner?.path === path) {
    const replaced = before.sources[args.name];
    if (replaced && replaced.path !== path) {
      lines.push(`It takes the place of the entry in ${ctx.show(replaced.path)} (${replaced.providerName}).`);
    }
    if (ctx.manager.getConnectionStatus(args.name) !== "disconnected" || replaced)
      await ctx.manager.disconnectServer(args.name);
    await ctx.start([args.name]);
    const { line, state } = ctx.stateLine(args.name);
    lines.push(line);
    return ok(lines.join("\n"), { name: args.name, path, config: redactServerConfig(args.config), state });
  }
  const shadow = after.shadowed.find((entry) => entry.name === args.name && entry.source.path === path);
  const blocked = shadow
    ? `– not started: ${shadow.by.providerName} (${ctx.show(shadow.by.path)}) defines ${args.name} with higher priority`
    : ctx.whyNotStarted(args.name, after);
  if (blocked) lines.push(blocked);
  return ok(lines.join("\n"), {
    name: args.name,
    path,
    config: redactServerConfig(args.config),
    state: undefined,
  });
}

/** `/mcp remove`: only entries of the native files; other clients' files are never edited. */
export async function removeCommand(ctx: MCPCommandContext, args: RemoveArgs): Promise<MCPCommandResult> {
  const { name } = args;
  const scopes: ConfigScope[] = [];
  for (const scope of args.scope ? [args.scope] : (["project", "user"] as const)) {
    const file = await ctx.writer.read(scope);
    if (Object.hasOwn(file.mcpServers, name)) scopes.push(scope);
  }
  if (scopes.length === 0) {
    const discovery = await ctx.discover();
    const known = ctx.knownNames(discovery);
    if (!known.includes(name)) return ctx.unknownServer(name, known);
    if (args.scope) {
      return failure("UNKNOWN_SERVER", `${name} is not in ${ctx.show(ctx.writer.pathOf(args.scope))}.`);
    }
    const source = ctx.sourceOf(name, discovery);
    const where = source ? ` in ${source.providerName}'s ${ctx.show(source.path)}` : "";
    return failure(
      "CONFIG_INVALID",
      `${name} is defined${where}, not in mcp-rt's own config; mcp-rt never edits other clients' files. Use /mcp disable ${name} to turn it off.`,
    );
  }
  if (scopes.length > 1) {
    return usageError(
      "remove",
      `${name} is in both the user and the project file; pass --scope user or --scope project`,
    );
  }
  const scope = scopes[0]!;
  const path = await ctx.keepingTrust(scope, () => ctx.writer.removeServer(name, scope));
  const wasRunning = ctx.manager.getConnectionStatus(name) !== "disconnected";
  await ctx.manager.disconnectServer(name);
  const lines = [`Removed ${name} from ${ctx.show(path)}${wasRunning ? "; stopped it" : ""}.`];
  const after = await ctx.start([name]);
  const next = after.sources[name];
  if (next)
    lines.push(
      `Another entry of ${name} now counts: ${next.providerName} (${ctx.show(next.path)}).`,
      ctx.stateLine(name).line,
    );
  return ok(lines.join("\n"), { name, path, stopped: wasRunning });
}
