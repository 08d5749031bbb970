/** True for a plain `{…}` object (JSON object, TOML table), not an array, date or null. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const MAX_SHOWN = 60;

/**
 * A short description of a value for an error message: `-5`, `"abc"`, `an
 * array`, `null`… Long values are cut so a message stays one readable line.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") return clip(JSON.stringify(value));
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  if (value instanceof Date)
    return `a date (${Number.isNaN(value.getTime()) ? "invalid" : value.toISOString()})`;
  if (Array.isArray(value)) {
    const json = safeJson(value);
    return json !== undefined && json.length <= MAX_SHOWN ? json : `an array of ${value.length} items`;
  }
  if (typeof value === "object") {
    const json = safeJson(value);
    return json !== undefined && json.length <= MAX_SHOWN ? json : "an object";
  }
  return `a ${typeof value}`;
}

/**
 * What kind of value it is, without the value: `a number`, `an object`,
 * `an array`, `null`… For messages about fields whose values may be secret
 * (`env`, `headers`, `args`).
 */
export function describeKind(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const kind = value instanceof Date ? "date" : typeof value;
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

/** `.name` when the name is a plain identifier, `["odd name"]` otherwise. */
export function fieldKey(name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

/** Sets an own property, even one named `__proto__`. */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function clip(text: string): string {
  return text.length <= MAX_SHOWN ? text : `${text.slice(0, MAX_SHOWN - 2)}…"`;
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
