/** What a definition holds where the deep schema goes; {@link writeDeepSchemasByHand} puts the schema in. */
export const DEEP_SCHEMA_MARKER = "mcp-rt-fixture:deep-schema";

/** `{"type":"object","properties":{"next":…}}` nested `depth` times around `{"type":"string"}`. */
export function deepSchemaText(depth: number): string {
  const open = '{"type":"object","properties":{"next":';
  return `${open.repeat(depth)}{"type":"string"}${"}}".repeat(depth)}`;
}

/**
 * `JSON.stringify` recurses and throws past a few thousand levels, so a
 * server cannot send a schema that deep through any SDK transport. This makes
 * the fixture process's `JSON.stringify` replace the quoted marker with the
 * schema's text, for stdio and HTTP alike. Only the fixture program calls it.
 */
export function writeDeepSchemasByHand(depth: number): void {
  const stringify = JSON.stringify;
  const quoted = stringify(DEEP_SCHEMA_MARKER);
  // The definition itself is the first level.
  const text = deepSchemaText(Math.max(0, depth - 1));
  JSON.stringify = ((value: unknown, replacer?: never, space?: string | number) => {
    const out = stringify(value, replacer, space);
    return typeof out === "string" && out.includes(quoted) ? out.split(quoted).join(text) : out;
  }) as typeof JSON.stringify;
}
