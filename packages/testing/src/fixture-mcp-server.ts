import { setTimeout as sleep } from "node:timers/promises";
import {
  type CallToolResult,
  type InputRequiredResult,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
  type Tool,
  type Transport,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { DEEP_SCHEMA_MARKER } from "./deep-schema.js";
import { askStateCodec } from "./fixture-ask.js";
import { addFixtureContent } from "./fixture-content.js";
import { addDefinedTools, type ListedTool, readFixtureDefinitions } from "./fixture-definitions.js";
import { type FixtureOptions, TERMINAL_ESCAPES } from "./fixture-options.js";

/** What the MCP side of the fixture needs from the process around it. */
export interface FixtureHooks {
  /** Writes one diagnostic line to stderr. */
  log(line: string): void;
  /** Ends the process at once (after logging why). */
  exit(code: number, why: string): never;
  /**
   * Modern HTTP, where each request meets a new server: the tools `add_tool`
   * added, kept by the process, and how a change is announced (on the
   * handler's `subscriptions/listen` streams).
   */
  shared?: SharedTools;
}

/** Tools added at run time that outlive one server instance, and where their changes are announced. */
export interface SharedTools {
  added: Set<string>;
  changed(): void;
}

type ToolHandler = (
  args: Record<string, unknown>,
  ctx: ServerContext,
) => CallToolResult | InputRequiredResult | Promise<CallToolResult | InputRequiredResult>;

const text = (value: string, isError = false): CallToolResult => ({
  content: [{ type: "text", text: value }],
  ...(isError ? { isError: true } : {}),
});

/** The list requests `slowContentMs` holds back. */
const CONTENT_LISTS = new Set(["resources/list", "resources/templates/list", "prompts/list"]);

const HUGE_PATTERN = "abcdefghijklmnopqrstuvwxyz0123456789";

/** Exactly `length` characters: `text`, then filler (or `text` cut). */
function padded(text: string, length: number): string {
  const filler = " Lorem ipsum dolor sit amet.";
  return (text + filler.repeat(Math.ceil(Math.max(0, length - text.length) / filler.length))).slice(
    0,
    length,
  );
}

/** A block of `bytes` bytes for `huge`: ASCII text, or base64 image or audio data. */
function hugeBlock(bytes: number, type: unknown): CallToolResult["content"][number] {
  if (type === "image" || type === "audio") {
    const data = Buffer.alloc(bytes, 0x5a).toString("base64");
    return type === "image"
      ? { type: "image", data, mimeType: "image/png" }
      : { type: "audio", data, mimeType: "audio/wav" };
  }
  return { type: "text", text: HUGE_PATTERN.repeat(Math.ceil(bytes / HUGE_PATTERN.length)).slice(0, bytes) };
}

/**
 * Builds one fixture `McpServer` (one per stdio process, one per HTTP session).
 * `tools/list` is answered here rather than by `McpServer`, so that it can page;
 * `tools/call`, input validation and `list_changed` stay the SDK's.
 */
export function createFixtureMcpServer(options: FixtureOptions, hooks: FixtureHooks): McpServer {
  const escapes = options.escapes ? TERMINAL_ESCAPES : "";
  // Read at each start (a stdio process, an HTTP session): a file changed between two starts is a server that changed.
  const defined = options.definitions === undefined ? undefined : readFixtureDefinitions(options.definitions);
  const instructions = escapes ? `Read me.${escapes}` : defined?.instructions;
  const mcp = new McpServer(
    { name: `${options.name ?? "mcp-rt-fixture"}${escapes}`, version: "1.0.0" },
    {
      capabilities: {
        tools: { listChanged: true },
        // Declared without handlers: every resources/* and prompts/* request gets -32601.
        ...(options.contentNotFound ? { resources: {}, prompts: {} } : {}),
      },
      ...(instructions === undefined ? {} : { instructions }),
      // A requestState the client did not echo byte for byte fails its retry with -32602.
      requestState: { verify: askStateCodec.verify },
    },
  );
  const prefix = options.toolPrefix ?? "";
  const listed = new Map<string, ListedTool>();

  const addTool = (
    name: string,
    text: string,
    shape: z.ZodRawShape,
    handler: ToolHandler,
    listedSchema?: Tool["inputSchema"],
    outputSchema?: Tool["outputSchema"],
  ): void => {
    const description =
      options.descriptionChars === undefined ? text : padded(text, options.descriptionChars);
    const schema = z.object(shape);
    const { $schema: _ignored, ...generated } = z.toJSONSchema(schema, { io: "input" });
    const inputSchema = listedSchema ?? generated;
    const registered = mcp.registerTool(
      name,
      { description, inputSchema: schema },
      (args: Record<string, unknown>, ctx) => handler(args, ctx),
    );
    listed.set(name, {
      // Listed, not registered: the SDK server would refuse to send a result that does not match it.
      definition: {
        name,
        description,
        inputSchema: inputSchema as Tool["inputSchema"],
        ...(outputSchema ? { outputSchema } : {}),
      },
      registered,
    });
  };

  addTool(`${prefix}echo`, "Returns `message` unchanged.", { message: z.string() }, ({ message }) =>
    text(String(message)),
  );

  mcp.server.setRequestHandler("tools/list", (request) => {
    const all = [...listed.values()].map((entry) => entry.definition);
    const cursor = request.params?.cursor;
    let start = 0;
    if (cursor !== undefined && cursor !== "loop") {
      const match = /^offset:(\d+)$/.exec(cursor);
      start = match ? Number(match[1]) : Number.NaN;
      if (!Number.isSafeInteger(start) || start > all.length) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor "${cursor}"`);
      }
    }
    const end = options.pageSize === undefined ? all.length : start + options.pageSize;
    const nextCursor = options.cursorLoop ? "loop" : end < all.length ? `offset:${end}` : undefined;
    // Announced once the answer is out: the client lists again, and is told again, forever.
    if (options.listChangedStorm) setImmediate(() => mcp.sendToolListChanged());
    return {
      tools: all.slice(start, end),
      ...(nextCursor === undefined ? {} : { nextCursor }),
      ...(options.listTtlMs === undefined ? {} : { ttlMs: options.listTtlMs }),
      ...(options.listScope === undefined ? {} : { cacheScope: options.listScope }),
    };
  });

  for (let i = 0; i < (options.tools ?? 0); i++) {
    const name = `${prefix}tool_${i}`;
    addTool(
      name,
      `Extra fixture tool ${i} of ${options.tools}.`,
      { input: z.string().optional() },
      ({ input }) => text(input === undefined ? name : `${name}: ${String(input)}`),
    );
  }

  if (options.crashOnCall) {
    addTool(`${prefix}crash`, "Exits the server process before answering.", {}, () =>
      hooks.exit(1, "crashing during tools/call (--crash-on-call)"),
    );
  }

  if (options.slowTool) {
    addTool(
      `${prefix}slow`,
      "Takes `ms` milliseconds in `steps` steps, reporting progress after each; honours cancellation.",
      { ms: z.number().int().min(0).default(1000), steps: z.number().int().min(1).max(10_000).default(5) },
      async (args, ctx) => {
        const ms = Number(args.ms);
        const steps = Number(args.steps);
        const progressToken = ctx.mcpReq._meta?.progressToken;
        for (let step = 1; step <= steps; step++) {
          try {
            await sleep(ms / steps, undefined, { signal: ctx.mcpReq.signal });
          } catch (error) {
            hooks.log(`slow cancelled after ${step - 1} of ${steps} steps`);
            throw error;
          }
          if (progressToken !== undefined) {
            await ctx.mcpReq.notify({
              method: "notifications/progress",
              params: { progressToken, progress: step, total: steps, message: `step ${step} of ${steps}` },
            });
          }
        }
        return text(`slow done: ${ms} ms in ${steps} steps`);
      },
    );
  }

  if (options.hugeTool) {
    addTool(
      `${prefix}huge`,
      "Returns one text block of exactly `bytes` ASCII characters.",
      {
        bytes: z
          .number()
          .int()
          .min(0)
          .max(256 * 1024 * 1024)
          .default(1_000_000),
        type: z.enum(["text", "image", "audio"]).default("text"),
      },
      ({ bytes, type }) => ({ content: [hugeBlock(Number(bytes), type)] }),
    );
  }

  if (options.appTools) {
    for (const [name, visibility] of [
      ["app_refresh", ["app"]],
      ["app_view", ["model", "app"]],
    ] as const) {
      addTool(`${prefix}${name}`, `An MCP Apps tool visible to: ${visibility.join(", ")}.`, {}, () =>
        text(`${name} called`),
      );
      const entry = listed.get(`${prefix}${name}`);
      if (entry)
        entry.definition._meta = { ui: { resourceUri: "ui://fixture/app", visibility: [...visibility] } };
    }
  }

  if (options.headerTools) {
    addTool(
      `${prefix}routed`,
      "Returns the region it was routed to; `region` travels as the Mcp-Param-Region header too.",
      { region: z.string().meta({ "x-mcp-header": "Region" }), note: z.string().optional() },
      ({ region }) => text(`routed to ${String(region)}`),
    );
    addTool(
      `${prefix}bad_header`,
      "Listed with an invalid x-mcp-header (on a number), which a client must leave out.",
      { count: z.number() },
      () => text("bad_header called"),
      { type: "object", properties: { count: { type: "number", "x-mcp-header": "Count" } } },
    );
  }

  if (options.schemaDepth !== undefined) {
    addTool(
      `${prefix}deep`,
      `Its input schema nests ${options.schemaDepth} levels deep.`,
      {},
      () => text("deep called"),
      { type: "object", properties: { next: DEEP_SCHEMA_MARKER as never } },
    );
  }

  if (options.longToolName !== undefined) {
    const name = `${prefix}long_name_${"n".repeat(options.longToolName)}`.slice(0, options.longToolName);
    addTool(name, "A tool with a very long name.", {}, () => text("long called"));
  }

  if (options.escapes) {
    addTool(`${prefix}escape${escapes}`, `Shows escape sequences.${escapes}`, {}, () =>
      text(`before${escapes}after`),
    );
  }

  if (options.listChanging) {
    const { shared } = hooks;
    const addRuntimeTool = (toolName: string): void =>
      addTool(toolName, `Added at run time by add_tool.`, {}, () => text(`${toolName} called`));
    for (const toolName of shared?.added ?? []) addRuntimeTool(toolName);
    addTool(
      `${prefix}add_tool`,
      "Adds a tool named `name` and sends notifications/tools/list_changed.",
      { name: z.string().min(1) },
      ({ name }) => {
        const toolName = String(name);
        if (listed.has(toolName)) return text(`tool "${toolName}" already exists`, true);
        addRuntimeTool(toolName);
        shared?.added.add(toolName);
        shared?.changed();
        return text(`added ${toolName}`);
      },
    );
    addTool(
      `${prefix}remove_tool`,
      "Removes the tool named `name` and sends notifications/tools/list_changed.",
      { name: z.string().min(1) },
      ({ name }) => {
        const toolName = String(name);
        const entry = listed.get(toolName);
        if (!entry) return text(`no tool "${toolName}"`, true);
        listed.delete(toolName);
        entry.registered.remove();
        if (shared?.added.delete(toolName)) shared.changed();
        return text(`removed ${toolName}`);
      },
    );
  }

  if (options.definitions !== undefined && defined) {
    addDefinedTools(mcp, listed, { path: options.definitions, first: defined });
  }

  addFixtureContent(mcp, options, (name, description, shape, handler, outputSchema) =>
    addTool(name, description, shape, handler, undefined, outputSchema),
  );

  if (options.crashAfterInit) {
    // A moment's delay lets the initialize response out first even when a
    // client sends `initialized` without waiting for it.
    mcp.server.oninitialized = () =>
      setTimeout(() => hooks.exit(1, "crashing right after initialize (--crash-after-init)"), 20);
  }
  return mcp;
}

/**
 * Connects `mcp` to `transport`, then delays (`initDelayMs`) or swallows
 * (`hangAtInit`) the `initialize` request on its way in. Wrapping the
 * transport's `onmessage` works the same for stdio, Streamable HTTP and SSE.
 */
export async function connectFixture(
  mcp: McpServer,
  transport: Transport,
  options: FixtureOptions,
  hooks: FixtureHooks,
): Promise<void> {
  await mcp.connect(transport);
  holdBackRequests(transport, options, hooks, ["initialize"]);
}

/**
 * Wraps `transport.onmessage` (once whatever serves the transport has set it)
 * so that the opening requests named in `openings` are delayed
 * (`initDelayMs`) or swallowed (`hangAtInit`), and the content lists are
 * delayed (`slowContentMs`).
 */
export function holdBackRequests(
  transport: Transport,
  options: FixtureOptions,
  hooks: FixtureHooks,
  openings: readonly string[],
): void {
  const deliver = transport.onmessage;
  if (!deliver || (!options.hangAtInit && !options.initDelayMs && !options.slowContentMs)) return;
  const slowContent = options.slowContentMs;
  transport.onmessage = (message, extra) => {
    if (slowContent && "method" in message && CONTENT_LISTS.has(message.method)) {
      setTimeout(() => deliver(message, extra), slowContent);
      return;
    }
    if (!("method" in message) || !openings.includes(message.method)) return deliver(message, extra);
    if (options.hangAtInit) {
      hooks.log(`received ${message.method}; never answering (--hang-at-init)`);
      return;
    }
    hooks.log(`received ${message.method}; answering in ${options.initDelayMs} ms (--init-delay-ms)`);
    setTimeout(() => deliver(message, extra), options.initDelayMs);
  };
}
