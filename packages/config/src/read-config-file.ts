import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { type Node as JsonNode, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";
import type { ConfigIssue } from "./model/config-issue.js";
import { setOwn } from "./util/describe-value.js";
import { errorMessage } from "./util/error-message.js";

/** How a config file is written: strict JSON, JSON with comments (VS Code, Gemini), or TOML (Codex). */
export type ConfigFormat = "json" | "jsonc" | "toml";

/** What reading one config file gave. A missing file is not an error. */
export type ReadConfigFileResult =
  | { status: "missing" }
  | { status: "ok"; document: unknown }
  | { status: "error"; issue: ConfigIssue };

/**
 * Reads and parses one config file. Never throws: a path that does not exist
 * is `missing`; anything {@link readTextFile} refuses, or text that does not
 * parse, is an `error` whose issue names the file and, for syntax errors,
 * the line and column. Empty text is an empty document.
 */
export async function readConfigFile(path: string, format: ConfigFormat): Promise<ReadConfigFileResult> {
  const read = await readTextFile(path);
  if (read.status === "missing") return read;
  if (read.status === "error") {
    return {
      status: "error",
      issue: { path, code: "CONFIG_UNREADABLE", message: `${path}: ${read.problem}` },
    };
  }
  const body = read.text.charCodeAt(0) === 0xfeff ? read.text.slice(1) : read.text;
  if (body.trim() === "") return { status: "ok", document: {} };
  try {
    return format === "toml" ? parseTomlText(body, path) : parseJsonText(body, format, path);
  } catch (error) {
    // Only pathological input gets here (e.g. nesting deep enough to exhaust the stack).
    const reason = error instanceof RangeError ? "nested too deeply" : errorMessage(error);
    return { status: "error", issue: invalid(path, `${path}: cannot parse (${reason}); fix the file`) };
  }
}

function invalid(path: string, message: string, at: { line?: number; column?: number } = {}): ConfigIssue {
  return { path, code: "CONFIG_INVALID", ...at, message };
}

// A config file this big is a mistake, and reading it would stall startup.
const MAX_CONFIG_FILE_BYTES = 256 * 1024 * 1024;
const FOLDER = "is a folder where a config file is expected; remove or rename the folder";

/** What reading a text file gave: its text, nothing (it does not exist), or why it cannot be read. */
export type ReadTextFileResult =
  | { status: "ok"; text: string }
  | { status: "missing" }
  /** `problem` completes "<path> …", e.g. "is a folder where a config file is expected; …". */
  | { status: "error"; problem: string };

/**
 * Reads a config or dotenv file as UTF-8 without ever waiting on something
 * that is not a file: a folder, a named pipe or a device in its place, a file
 * larger than 256 MiB, or one that cannot be read is an `error`; a path that
 * does not exist is `missing`. Never throws.
 */
export async function readTextFile(path: string): Promise<ReadTextFileResult> {
  const refused = (problem: string) => ({ status: "error" as const, problem });
  let handle: FileHandle;
  try {
    // O_NONBLOCK: opening a named pipe must not wait for a writer.
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { status: "missing" };
    return refused(code === "EISDIR" ? FOLDER : unreadable(error));
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) return refused(FOLDER);
    if (!info.isFile()) {
      return refused("is not a regular file (a pipe, socket or device); replace it with a config file");
    }
    if (info.size > MAX_CONFIG_FILE_BYTES) {
      const mib = (bytes: number) => Math.ceil(bytes / 2 ** 20);
      return refused(
        `is ${mib(info.size)} MiB, more than the ${mib(MAX_CONFIG_FILE_BYTES)} MiB a config file may have; it was not read`,
      );
    }
    return { status: "ok", text: await handle.readFile("utf8") };
  } catch (error) {
    return refused(unreadable(error));
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function unreadable(error: unknown): string {
  return `cannot read the file (${errorMessage(error)}); fix its permissions or remove it`;
}

function parseJsonText(text: string, format: "json" | "jsonc", path: string) {
  if (format === "json") {
    // The fast path for large files such as ~/.claude.json (JSON.parse keeps a
    // `__proto__` key as an own property); on a syntax error the parser below says where.
    try {
      return { status: "ok" as const, document: JSON.parse(text) as unknown };
    } catch {}
  }
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, {
    disallowComments: format === "json",
    allowTrailingComma: format === "jsonc",
    allowEmptyContent: false,
  });
  const first = errors[0];
  if (first !== undefined || tree === undefined) {
    const offset = first?.offset ?? 0;
    const { line, column } = lineAndColumn(text, offset);
    const what =
      first === undefined ? "no JSON value" : describeJsonError(first.error, afterComma(text, offset));
    const kind = format === "json" ? "JSON" : "JSON (with comments)";
    const message = `${path}:${line}:${column}: invalid ${kind}: ${what}; fix the file's syntax there`;
    return { status: "error" as const, issue: invalid(path, message, { line, column }) };
  }
  return { status: "ok" as const, document: nodeValue(tree) };
}

function parseTomlText(text: string, path: string) {
  try {
    return { status: "ok" as const, document: parseToml(text) };
  } catch (error) {
    const { line, column } = error as { line?: unknown; column?: unknown };
    const raw = errorMessage(error);
    const reason = (raw.split("\n")[0] ?? raw).replace(/^Invalid TOML document:\s*/, "");
    const at = {
      ...(typeof line === "number" ? { line } : {}),
      ...(typeof column === "number" ? { column } : {}),
    };
    const where = typeof line === "number" && typeof column === "number" ? `:${line}:${column}` : "";
    const message = `${path}${where}: invalid TOML: ${reason}; fix the file's syntax there`;
    return { status: "error" as const, issue: invalid(path, message, at) };
  }
}

/** 1-based line and column of a character offset. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

// Built by hand rather than with `getNodeValue` so a key named `__proto__`
// becomes an ordinary entry instead of replacing the object's prototype.
function nodeValue(node: JsonNode): unknown {
  switch (node.type) {
    case "object": {
      const object: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key !== undefined && value !== undefined) setOwn(object, String(key.value), nodeValue(value));
      }
      return object;
    }
    case "array":
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

/** True when the last non-blank character before `offset` is a comma: a trailing comma. */
function afterComma(text: string, offset: number): boolean {
  return /,\s*$/.test(text.slice(Math.max(0, offset - 200), offset));
}

function describeJsonError(code: ParseError["error"], trailingComma: boolean): string {
  const comma = trailingComma ? " (remove the trailing comma before it)" : "";
  const name = printParseErrorCode(code);
  if (name === "PropertyNameExpected") return `expected a property name in double quotes${comma}`;
  if (name === "ValueExpected") return `expected a value${comma}`;
  return JSON_ERRORS[name] ?? `syntax error (${name})`;
}

// jsonc-parser's error codes are a const enum, so they are matched by name.
const JSON_ERRORS: Record<string, string> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "invalid number",
  ColonExpected: 'expected ":" after the property name',
  CommaExpected: 'expected "," between entries',
  CloseBraceExpected: 'expected "}" to close the object',
  CloseBracketExpected: 'expected "]" to close the array',
  EndOfFileExpected: "unexpected content after the end of the document",
  InvalidCommentToken: "comments are not allowed in this file",
  UnexpectedEndOfComment: "unterminated comment",
  UnexpectedEndOfString: "unterminated string",
  UnexpectedEndOfNumber: "unterminated number",
  InvalidUnicode: "invalid unicode escape",
  InvalidEscapeCharacter: "invalid escape character",
  InvalidCharacter: "invalid character in a string",
};
