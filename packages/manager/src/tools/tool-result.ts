import { DEFAULT_RESULT_CHAR_LIMIT, DEFAULT_RESULT_MEDIA_BYTE_LIMIT } from "../result-limits.js";
import type { ToolResult, ToolResultContent, ToolResultDetails } from "./custom-tool.js";

/** A `tools/call` result as a server sends it; every field is treated as untrusted. */
export interface CallToolResultLike {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  /** The 2024-10-07 protocol's result field. */
  toolResult?: unknown;
  [key: string]: unknown;
}

/** Which tool produced a result, for its `details`. */
export type ToolResultContext = Omit<ToolResultDetails, "isError" | "rawContent">;

/** Options of {@link toToolResult}. */
export interface ToToolResultOptions {
  /** Text beyond this many characters is cut, with a note of how much. @default 100000 */
  resultCharLimit?: number;
  /** Images past this many bytes in all (decoded) become a short note each. @default 5242880 */
  resultMediaByteLimit?: number;
}

type Block = Record<string, unknown>;

const isRecord = (value: unknown): value is Block =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** How many bytes a base64 string holds (without decoding it). */
function bytesOf(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/** A byte count for a human. */
function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Roughly how many bytes a base64 string holds, for a human. */
function sizeOf(base64: string): string {
  return sizeText(bytesOf(base64));
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function describeResource(resource: Block): string {
  const uri = str(resource.uri) ?? "(no uri)";
  const mime = str(resource.mimeType);
  const head = `[resource ${uri}${mime ? ` (${mime})` : ""}]`;
  const text = str(resource.text);
  if (text !== undefined) return `${head}\n${text}`;
  const blob = str(resource.blob);
  return blob === undefined ? head : `${head} binary, ${sizeOf(blob)}`;
}

function convertBlock(block: unknown): ToolResultContent {
  if (!isRecord(block)) return { type: "text", text: json(block) };
  switch (block.type) {
    case "text":
      return { type: "text", text: str(block.text) ?? "" };
    case "image": {
      const data = str(block.data);
      const mimeType = str(block.mimeType);
      if (data !== undefined && mimeType !== undefined) return { type: "image", data, mimeType };
      return { type: "text", text: "[image without data or mime type]" };
    }
    case "audio": {
      const data = str(block.data) ?? "";
      return { type: "text", text: `[audio ${str(block.mimeType) ?? "(unknown type)"}, ${sizeOf(data)}]` };
    }
    case "resource":
      return {
        type: "text",
        text: isRecord(block.resource) ? describeResource(block.resource) : "[resource]",
      };
    case "resource_link": {
      const name = str(block.title) ?? str(block.name);
      const mime = str(block.mimeType);
      const description = str(block.description);
      const parts = [`[resource link ${str(block.uri) ?? "(no uri)"}`];
      if (name) parts.push(` "${name}"`);
      if (mime) parts.push(` (${mime})`);
      parts.push("]");
      if (description) parts.push(` ${description}`);
      return { type: "text", text: parts.join("") };
    }
    default:
      return { type: "text", text: `[${str(block.type) ?? "unknown"} content] ${json(block)}` };
  }
}

const isImage = (block: ToolResultContent): boolean => block.type === "image";

/** True when some text block already carries the structured content (the spec asks servers to do so). */
function mirrorsStructured(content: ToolResultContent[], structured: unknown): boolean {
  const expected = json(structured);
  return content.some((block) => {
    if (block.type !== "text") return false;
    try {
      return json(JSON.parse(block.text)) === expected;
    } catch {
      return false;
    }
  });
}

/** Characters of text in `content`. */
function textLength(content: ToolResultContent[]): number {
  let total = 0;
  for (const block of content) if (block.type === "text") total += block.text.length;
  return total;
}

/** Cuts text blocks once their total passes `limit` characters, and says how much was cut. */
function truncate(content: ToolResultContent[], limit: number): ToolResultContent[] {
  const total = textLength(content);
  if (total <= limit) return content;
  let budget = limit;
  const kept: ToolResultContent[] = [];
  for (const block of content) {
    if (block.type !== "text") {
      kept.push(block);
    } else if (budget > 0) {
      kept.push({ type: "text", text: block.text.slice(0, budget) });
      budget -= Math.min(budget, block.text.length);
    }
  }
  kept.push({
    type: "text",
    text: `[output truncated: ${total - limit} of ${total} characters cut; raise resultCharLimit to see more]`,
  });
  return kept;
}

/** Keeps images while their bytes fit `limit` in all; each one past it becomes a note. */
function limitMedia(content: ToolResultContent[], limit: number): ToolResultContent[] {
  let used = 0;
  return content.map((block) => {
    if (block.type !== "image") return block;
    const bytes = bytesOf(block.data);
    if (used + bytes <= limit) {
      used += bytes;
      return block;
    }
    return {
      type: "text",
      text: `[image ${block.mimeType}, ${sizeText(bytes)}, not shown: past the ${sizeText(limit)} of images a result may hold; raise resultMediaByteLimit to see it]`,
    };
  });
}

/**
 * A result's `details`: where it came from, whether it failed, what the server
 * sent. Literals, not `{ ...context, isError, rawContent }` or `Object.assign`:
 * Node 20's V8 copies those property by property on a generic path, on every
 * call (bench/README.md, "Why the call path is shaped so").
 */
export function resultDetails(
  context: ToolResultContext,
  isError: boolean,
  rawContent: unknown,
): ToolResultDetails {
  const { serverName, mcpToolName, provider, providerName } = context;
  return provider === undefined && providerName === undefined
    ? { serverName, mcpToolName, isError, rawContent }
    : { serverName, mcpToolName, provider, providerName, isError, rawContent };
}

/**
 * Converts an MCP `tools/call` result into a {@link ToolResult}: text stays text,
 * images stay images; audio, embedded resources, resource links and
 * `structuredContent` become short text (uri, mime type, JSON). Text past
 * `resultCharLimit` is cut (the content before the cut is kept in
 * `details.uncutContent`) and images past `resultMediaByteLimit` become
 * notes, each saying so. The server's result is kept as is in `details.rawContent`.
 */
export function toToolResult(
  raw: CallToolResultLike,
  context: ToolResultContext,
  options: ToToolResultOptions = {},
): ToolResult {
  const limit = options.resultCharLimit ?? DEFAULT_RESULT_CHAR_LIMIT;
  const mediaLimit = options.resultMediaByteLimit ?? DEFAULT_RESULT_MEDIA_BYTE_LIMIT;
  // `map` makes the array at its size; pushing to `[]` grows it (a second array) on every call.
  let content: ToolResultContent[] = Array.isArray(raw.content) ? raw.content.map(convertBlock) : [];
  if (raw.structuredContent !== undefined && !mirrorsStructured(content, raw.structuredContent)) {
    content.push({ type: "text", text: json(raw.structuredContent) });
  }
  if (raw.content === undefined && raw.toolResult !== undefined) {
    content.push({
      type: "text",
      text: typeof raw.toolResult === "string" ? raw.toolResult : json(raw.toolResult),
    });
  }
  if (content.length === 0) content = [{ type: "text", text: "(no output)" }];
  // Text-only results, the usual ones, skip the media limit.
  if (content.some(isImage)) content = limitMedia(content, mediaLimit);
  const details = resultDetails(context, raw.isError === true, raw);
  const cut = truncate(content, limit);
  if (cut !== content) details.uncutContent = content;
  const result: ToolResult = { content: cut, details };
  if (details.isError) result.isError = true;
  return result;
}

/**
 * A failed call as tool output: one text block `MCP error: <message>`, marked
 * as an error, so the model sees what went wrong instead of the agent crashing.
 */
export function toolErrorResult(message: string, context: ToolResultContext, raw?: unknown): ToolResult {
  return {
    content: [{ type: "text", text: `MCP error: ${message}` }],
    isError: true,
    details: resultDetails(context, true, raw),
  };
}
