/**
 * The shape check of an entry whose `mac` checks out. Such an entry was written
 * by a cache holding this key and of this format version, and that writer
 * parsed it with `MCPToolCacheEntrySchema` before signing it, so the reader does
 * not parse it again (zod's parse of every entry was a tenth of the example
 * agent's start). It checks what the reader and its callers rely on (the
 * containers, the names, the ids, the schemas' types), so that an entry of a
 * writer that broke the format without a new version is a miss, not a crash.
 */

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isName = (value: unknown): boolean => typeof value === "string" && value.length > 0;
const isOptional = (value: unknown, type: "string" | "number" | "boolean"): boolean =>
  value === undefined || typeof value === type;

/** Per listed item: the first wrong field's name, or undefined. */
type ItemCheck = (item: Fields) => string | undefined;

const tool: ItemCheck = (item) => {
  if (!isName(item.name)) return "name";
  if (!isObject(item.inputSchema)) return "inputSchema";
  if (item.outputSchema !== undefined && !isObject(item.outputSchema)) return "outputSchema";
  if (item.annotations !== undefined && !isObject(item.annotations)) return "annotations";
  return described(item);
};
const resource: ItemCheck = (item) => (isName(item.uri) ? named(item) : "uri");
const template: ItemCheck = (item) => (isName(item.uriTemplate) ? named(item) : "uriTemplate");
const prompt: ItemCheck = (item) => {
  if (!isName(item.name)) return "name";
  const args = item.arguments;
  if (args !== undefined && !(Array.isArray(args) && args.every((a) => isObject(a) && isName(a.name))))
    return "arguments";
  return described(item);
};

function named(item: Fields): string | undefined {
  return typeof item.name === "string" ? described(item) : "name";
}

function described(item: Fields): string | undefined {
  for (const field of ["title", "description", "mimeType"])
    if (!isOptional(item[field], "string")) return field;
  return isOptional(item.size, "number") ? undefined : "size";
}

function list(value: unknown, field: string, check: ItemCheck, optional: boolean): string | undefined {
  if (value === undefined && optional) return undefined;
  if (!Array.isArray(value)) return `${field}: expected an array`;
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    const wrong = isObject(item) ? check(item) : "(value)";
    if (wrong !== undefined) return `${field}.${i}.${wrong}: not what the format holds`;
  }
  return undefined;
}

/** `field: what is wrong` for the first field of `entry` the reader cannot use, or undefined. */
export function entryShapeProblem(entry: Fields): string | undefined {
  if (!isName(entry.fingerprint)) return "fingerprint: expected a string";
  if (typeof entry.savedAt !== "number") return "savedAt: expected a number";
  if (!isOptional(entry.instructions, "string")) return "instructions: expected a string";
  if (!isOptional(entry.startMs, "number")) return "startMs: expected a number";
  const missed = entry.missedStartup;
  if (missed !== undefined && !(isObject(missed) && typeof missed.waitMs === "number"))
    return "missedStartup: expected { waitMs }";
  const failed = entry.failedStartup;
  if (
    failed !== undefined &&
    !(isObject(failed) && typeof failed.code === "string" && typeof failed.message === "string")
  )
    return "failedStartup: expected { code, message }";
  const era = entry.era;
  if (
    era !== undefined &&
    !(
      isObject(era) &&
      (era.era === "modern" || era.era === "legacy") &&
      isName(era.protocolVersion) &&
      typeof era.decidedAt === "number" &&
      (era.discover === undefined || isObject(era.discover))
    )
  )
    return "era: expected { era, protocolVersion, decidedAt }";
  const hint = entry.toolsHint;
  if (
    hint !== undefined &&
    !(
      isObject(hint) &&
      typeof hint.ttlMs === "number" &&
      typeof hint.receivedAt === "number" &&
      (hint.cacheScope === "public" || hint.cacheScope === "private")
    )
  )
    return "toolsHint: expected { ttlMs, cacheScope, receivedAt }";
  const info = entry.serverInfo;
  if (
    info !== undefined &&
    !(isObject(info) && typeof info.name === "string" && typeof info.version === "string")
  )
    return "serverInfo: expected { name, version }";
  return (
    list(entry.tools, "tools", tool, true) ??
    list(entry.resources, "resources", resource, true) ??
    list(entry.resourceTemplates, "resourceTemplates", template, true) ??
    list(entry.prompts, "prompts", prompt, true)
  );
}
