import {
  type CallToolResult,
  type InputRequiredResult,
  type McpServer,
  ResourceTemplate,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { ASK_URL, askForm, askModern, askUrlModern, isModernRequest } from "./fixture-ask.js";
import type { FixtureOptions } from "./fixture-options.js";

type AddTool = (
  name: string,
  description: string,
  shape: z.ZodRawShape,
  handler: (
    args: Record<string, unknown>,
    ctx: ServerContext,
  ) => CallToolResult | InputRequiredResult | Promise<CallToolResult | InputRequiredResult>,
  outputSchema?: { type: "object"; [key: string]: unknown },
) => void;

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });

/** Two bytes of PNG signature and a few more: the binary resource's content. */
const BLOB = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3]);

/**
 * The resources, template and prompts of `--content`, and the huge resource
 * of `--huge-resource`. `McpServer` declares the capabilities with
 * `listChanged` and sends the list_changed notifications when one is added.
 */
export function addFixtureContent(mcp: McpServer, options: FixtureOptions, addTool: AddTool): void {
  const prefix = options.toolPrefix ?? "";
  if (options.hugeResource !== undefined) {
    const bytes = options.hugeResource;
    mcp.registerResource("huge", "fixture://huge", { mimeType: "text/plain", size: bytes }, (uri) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: "x".repeat(bytes) }],
    }));
  }
  if (!options.content) return;
  const addNote = (name: string, body: string): void => {
    mcp.registerResource(
      `note-${name}`,
      `fixture://notes/${name}`,
      { title: `Note ${name}`, description: `The note called ${name}.`, mimeType: "text/plain" },
      (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: body }] }),
    );
  };
  addNote("first", "The first note.");
  mcp.registerResource("blob", "fixture://blob", { mimeType: "image/png", size: BLOB.length }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: "image/png", blob: BLOB.toString("base64") }],
  }));
  mcp.registerResource(
    "note-by-name",
    new ResourceTemplate("fixture://notes/{name}", { list: undefined }),
    { description: "Any note, by name.", mimeType: "text/plain" },
    (uri, variables) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: `A note called ${String(variables.name)}.` }],
    }),
  );
  const addPrompt = (name: string): void => {
    mcp.registerPrompt(
      name,
      {
        title: `Prompt ${name}`,
        description: `Greets someone (${name}).`,
        argsSchema: z.object({ who: z.string() }),
      },
      ({ who }) => ({
        messages: [{ role: "user", content: { type: "text", text: `${name}: say hello to ${who}` } }],
      }),
    );
  };
  addPrompt("greet");
  addTool(
    `${prefix}add_resource`,
    "Adds the note `name` and sends notifications/resources/list_changed.",
    { name: z.string().min(1) },
    ({ name }) => {
      addNote(String(name), `The note ${String(name)}.`);
      return text(`added resource ${String(name)}`);
    },
  );
  // Registered always. Legacy era: `elicitation/create`, a tool error for a client without the
  // elicitation capability. Modern era: `input_required`, with a sealed requestState (fixture-ask.ts).
  addTool(
    `${prefix}ask`,
    "Asks the user for a name (required unless `optional`), a colour, a yes/no and a count (elicitation, form mode); in the 2026-07-28 era through input_required, `rounds` times.",
    { optional: z.boolean().default(false), rounds: z.number().int().min(1).default(1) },
    async ({ optional, rounds }, ctx) => {
      if (isModernRequest(ctx))
        return askModern(ctx, { optional: optional === true, rounds: Number(rounds) });
      const answer = await mcp.server.elicitInput({
        message: "Who are you?",
        requestedSchema: askForm(optional === true) as never,
      });
      return text(`answer: ${answer.action}${answer.content ? ` ${JSON.stringify(answer.content)}` : ""}`);
    },
  );
  addTool(
    `${prefix}ask_url`,
    "Asks the user to open a page (elicitation, URL mode).",
    {},
    async (_args, ctx) => {
      if (isModernRequest(ctx)) return askUrlModern(ctx);
      const answer = await mcp.server.elicitInput({ mode: "url", ...ASK_URL, elicitationId: "fixture-1" });
      return text(`answer: ${answer.action}`);
    },
  );
  addTool(
    `${prefix}structured`,
    "Returns structuredContent `{ count }`: a number when `valid`, else a string, against its outputSchema.",
    { valid: z.boolean().default(true) },
    ({ valid }) => {
      const structuredContent = { count: valid === false ? "three" : 3 };
      return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
    },
    { type: "object", properties: { count: { type: "number" } }, required: ["count"] },
  );
  addTool(
    `${prefix}add_prompt`,
    "Adds the prompt `name` and sends notifications/prompts/list_changed.",
    { name: z.string().min(1) },
    ({ name }) => {
      addPrompt(String(name));
      return text(`added prompt ${String(name)}`);
    },
  );
}
