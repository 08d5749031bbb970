/** What the rule reads of a server: its name and the names of its exposed tools. */
interface ToolNames {
  readonly name: string;
  readonly definitions: ReadonlyArray<{ readonly name: string }>;
}

/** A tool name unusual enough that another server's text naming it is telling: six characters or more, with `_`, `-` or a capital inside. */
const DISTINCTIVE = /^(?=.{6,}$)[A-Za-z][\w-]*(?:[_-]|[a-z][A-Z])[\w-]*$/;

/**
 * The distinctive tool names (`send_email`, `readFile`; not `search`) of
 * every server but `name`: a tool whose text names one of them steers how
 * another server's tools are used (the poisoning check's `other-tools` rule).
 */
export function distinctiveToolNames(servers: Iterable<ToolNames>, name: string): ReadonlySet<string> {
  const names = new Set<string>();
  for (const server of servers) {
    if (server.name === name) continue;
    for (const tool of server.definitions) if (DISTINCTIVE.test(tool.name)) names.add(tool.name);
  }
  return names;
}
