/** What {@link measureJson} found. */
export interface JsonMeasure {
  /** Deepest nesting of objects and arrays seen (a top-level object is 1). */
  depth: number;
  /** About the length of the value's JSON text (string escapes not counted). */
  size: number;
  /** Which limit the value passed, if any; the walk stopped there, so `depth` and `size` are lower bounds. */
  exceeded?: "depth" | "size";
}

/** Limits of {@link measureJson}; without them the whole value is walked. */
export interface MeasureJsonLimits {
  maxDepth?: number;
  maxSize?: number;
}

/**
 * Measures a JSON value's nesting and size without recursion and without
 * building its text, so a value too deep for `JSON.stringify` (which
 * recurses, and throws a few thousand levels down) is measured all the same,
 * and the walk stops as soon as a limit is passed.
 */
export function measureJson(value: unknown, limits: MeasureJsonLimits = {}): JsonMeasure {
  const maxDepth = limits.maxDepth ?? Number.POSITIVE_INFINITY;
  const maxSize = limits.maxSize ?? Number.POSITIVE_INFINITY;
  // Two stacks in step (values, their levels) rather than one of pairs: a start measures every
  // cached entry it reads, and a pair per value was most of what that walk allocated.
  const values: unknown[] = [value];
  const levels: number[] = [1];
  let depth = 0;
  let size = 0;
  while (values.length > 0) {
    const item = values.pop();
    const level = levels.pop()!;
    if (typeof item === "string") size += item.length + 2;
    else if (typeof item === "number" || typeof item === "boolean") size += String(item).length;
    else if (item === null) size += 4;
    else if (typeof item === "object") {
      depth = Math.max(depth, level);
      if (depth > maxDepth) return { depth, size, exceeded: "depth" };
      size += 2;
      if (Array.isArray(item)) {
        size += Math.max(0, item.length - 1);
        for (const element of item) {
          values.push(element);
          levels.push(level + 1);
        }
      } else {
        const keys = Object.keys(item);
        size += Math.max(0, keys.length - 1);
        for (const key of keys) {
          size += key.length + 3;
          values.push((item as Record<string, unknown>)[key]);
          levels.push(level + 1);
        }
      }
    }
    if (size > maxSize) return { depth, size, exceeded: "size" };
  }
  return { depth, size };
}
