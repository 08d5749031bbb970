import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { type Node as JsonNode, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";
import { setOwn } from "./describe-value.js";
import type { ConfigIssue } from "./server-config.js";
import { errorMessage } from "./util/error-message.js";

/** How a config file is written: strict JSON, JSON with comments (VS Code, Gemini), or TOML (Codex). */
export type ConfigFormat = "json" | "jsonc" | "toml";

/** What reading one config file gave. A missing file is not an error. */
export type ReadConfigFileResult =
  | { status: "missing" }
  | { status: "ok"; document: unknown }
  | { status: "error"; issue: ConfigIssue };

/**
 * Reads and parses one config file. Never throws, and never waits on
 * something that is not a file (see {@link readTextFile}): a path that does
 * not exist is `missing`; a folder, pipe or device in its place, a file that
 * cannot be read or is too large, or one that does not parse, is an `error`
 * whose issue names the file and, for syntax errors, the line and column.
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
  return parseConfigText(read.text, format, path);
}

/** Larger files are not read: a config file this big is a mistake, and reading it would stall startup. */
export const MAX_CONFIG_FILE_BYTES: number = 256 * 1024 * 1024;

/** What reading a text file gave: its text, nothing (it does not exist), or why it cannot be read. */
export type ReadTextFileResult =
  | { status: "ok"; text: string }
  | { status: "missing" }
  /** `problem` completes "<path> …", e.g. "is a folder where a config file is expected; …". */
  | { status: "error"; problem: string };

const FOLDER = "is a folder where a config file is expected; remove or rename the folder";

/**
 * Reads a config or dotenv file as UTF-8 without ever waiting on something
 * that is not a file: a folder, a named pipe or a device in its place, a file
 * larger than {@link MAX_CONFIG_FILE_BYTES}, or one that cannot be read is an
 * `error`; a path that does not exist is `missing`. Never throws.
 */
export async function readTextFile(path: string): Promise<ReadTextFileResult> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: opening a named pipe must not wait for a writer.
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { status: "missing" };
    return { status: "error", problem: code === "EISDIR" ? FOLDER : unreadable(error) };
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) return { status: "error", problem: FOLDER };
    if (!info.isFile()) {
      return {
        status: "error",
        problem: "is not a regular file (a pipe, socket or device); replace it with a config file",
      };
    }
    if (info.size > MAX_CONFIG_FILE_BYTES) {
      return {
        status: "error",
        problem: `is ${Math.ceil(info.size / 2 ** 20)} MiB, more than the ${MAX_CONFIG_FILE_BYTES / 2 ** 20} MiB a config file may have; it was not read`,
      };
    }
    return { status: "ok", text: await handle.readFile("utf8") };
  } catch (error) {
    return { status: "error", problem: unreadable(error) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function unreadable(error: unknown): string {
  const reason = errorMessage(error);
  return `cannot read the file (${reason}); fix its permissions or remove it`;
}

/** Parses config text; `path` only labels messages. Empty text is an empty document. */
export function parseConfigText(
  text: string,
  format: ConfigFormat,
  path: string,
): { status: "ok"; document: unknown } | { status: "error"; issue: ConfigIssue } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === "") return { status: "ok", document: {} };
  try {
    return format === "toml" ? parseTomlText(body, path) : parseJsonText(body, format, path);
  } catch (error) {
    // Only pathological input gets here (e.g. nesting deep enough to exhaust the stack).
    const reason = error instanceof RangeError ? "nested too deeply" : errorMessage(error);
    return {
      status: "error",
      issue: { path, code: "CONFIG_INVALID", message: `${path}: cannot parse (${reason}); fix the file` },
    };
  }
}

function parseJsonText(text: string, format: "json" | "jsonc", path: string) {
  if (format === "json") {
    // The fast path for large files such as ~/.claude.json. JSON.parse keeps a
    // `__proto__` key as an ordinary own property; on a syntax error the
    // slower parser below says where.
    try {
      return { status: "ok" as const, document: JSON.parse(text) as unknown };
    } catch {
      // Fall through for the line and column.
    }
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
    return {
      status: "error" as const,
      issue: {
        path,
        code: "CONFIG_INVALID" as const,
        line,
        column,
        message: `${path}:${line}:${column}: invalid ${kind}: ${what}; fix the file's syntax there`,
      },
    };
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
    const at = typeof line === "number" && typeof column === "number" ? `:${line}:${column}` : "";
    return {
      status: "error" as const,
      issue: {
        path,
        code: "CONFIG_INVALID" as const,
        ...(typeof line === "number" ? { line } : {}),
        ...(typeof column === "number" ? { column } : {}),
        message: `${path}${at}: invalid TOML: ${reason}; fix the file's syntax there`,
      },
    };
  }
}

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
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
