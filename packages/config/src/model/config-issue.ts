import type { McpRtErrorCode } from "./errors.js";

/** A problem with a file or one of its entries. */
export interface ConfigIssue {
  /** The file. */
  path: string;
  /** The server entry, when the problem is in one entry. */
  server?: string;
  /** What is wrong and what to change. */
  message: string;
  /** What kind of problem: `CONFIG_UNREADABLE`, `CONFIG_INVALID`, `VAR_UNSET`, `INPUT_UNRESOLVED`… */
  code?: McpRtErrorCode;
  /** 1-based line of a syntax error, when the parser reports one. */
  line?: number;
  /** 1-based column of a syntax error, when the parser reports one. */
  column?: number;
}
