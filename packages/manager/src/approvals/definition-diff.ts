import type { MCPToolDefinition } from "@mcp-rt/config";

/** A run of words of a changed text: kept, removed or added. */
export interface MCPWordChange {
  op: "same" | "removed" | "added";
  text: string;
}

/** One difference between the approved definition of a tool and the one it has now. */
export interface MCPToolDiffEntry {
  /**
   * Where: `title`, `description`, a path in a schema (`inputSchema.properties.note`,
   * `inputSchema.required`) or in the annotations (`annotations.destructiveHint`).
   */
  path: string;
  change: "added" | "removed" | "changed";
  /** What it was (text as it is, anything else as compact JSON); absent when added. */
  before?: string;
  /** What it is now; absent when removed. */
  after?: string;
  /** For a changed text: its words, run by run. */
  words?: MCPWordChange[];
}

/** Past this many word pairs a text's change is shown whole, not word by word. */
const MAX_WORD_PAIRS = 4_000_000;

const show = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Words and the spaces after them, so that runs read as the text did. */
const tokens = (text: string): string[] => text.match(/\S+\s*/g) ?? [];

/**
 * The words of `before` and `after` as runs kept, removed and added: a
 * longest common subsequence of words (texts too long for it come back as
 * one removed and one added run).
 */
export function diffWords(before: string, after: string): MCPWordChange[] {
  const a = tokens(before);
  const b = tokens(after);
  if (a.length * b.length > MAX_WORD_PAIRS) {
    return [
      { op: "removed", text: before },
      { op: "added", text: after },
    ];
  }
  // lengths[i][j]: the longest common run of a[i..] and b[j..], in one flat array.
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i]!.trim() === b[j]!.trim()
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const runs: MCPWordChange[] = [];
  const push = (op: MCPWordChange["op"], text: string): void => {
    const last = runs.at(-1);
    if (last?.op === op) last.text += text;
    else runs.push({ op, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]!.trim() === b[j]!.trim()) {
      push("same", b[j]!);
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) {
      push("removed", a[i++]!);
    } else {
      push("added", b[j++]!);
    }
  }
  while (i < a.length) push("removed", a[i++]!);
  while (j < b.length) push("added", b[j++]!);
  return runs;
}

/** The differences of two values at `path`: objects key by key, anything else as a whole. */
function diffValues(before: unknown, after: unknown, path: string, into: MCPToolDiffEntry[]): void {
  if (before === undefined && after === undefined) return;
  if (before === undefined) {
    into.push({ path, change: "added", after: show(after) });
    return;
  }
  if (after === undefined) {
    into.push({ path, change: "removed", before: show(before) });
    return;
  }
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    for (const key of keys) diffValues(before[key], after[key], `${path}.${key}`, into);
    return;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  const entry: MCPToolDiffEntry = { path, change: "changed", before: show(before), after: show(after) };
  if (typeof before === "string" && typeof after === "string") entry.words = diffWords(before, after);
  into.push(entry);
}

/**
 * How a tool's definition differs from the one approved: its title and
 * description (word by word), every path of its input and output schema
 * that was added, removed or changed, and its annotations. A tool never
 * approved (`before` undefined) comes back as one entry per field it has.
 *
 * @example diffToolDefinitions(approved, now) // [{ path: "inputSchema.properties.note", change: "added", after: '{"type":"string"}' }]
 */
export function diffToolDefinitions(
  before: MCPToolDefinition | undefined,
  after: MCPToolDefinition,
): MCPToolDiffEntry[] {
  const entries: MCPToolDiffEntry[] = [];
  const fields = ["title", "description", "inputSchema", "outputSchema", "annotations"] as const;
  for (const field of fields) diffValues(before?.[field], after[field], field, entries);
  return entries;
}
