import {
  buildInventory,
  discoverEntries,
  type ExplainJson,
  entriesOf,
  explainJson,
  formatExplain,
  knownNames,
} from "@mcp-rt/config/explain";
import { type LoadConfigsOptions, loadAllMCPConfigs } from "@mcp-rt/manager";

/** Options of {@link explainServer}. */
export interface ExplainServerOptions {
  cwd: string;
  homeDir: string;
  /** The session's discovery options, so the answer matches what the session does. */
  loadOptions: LoadConfigsOptions;
  /** How to word the `reason`s the session's `reserve` rule gives. @default the general sentence */
  reserveReasons?: Record<string, string>;
}

/** `explain` of one server: the text of `mcp-rt-config explain`, its JSON, or the known names. */
export type ExplainServerResult =
  | { found: true; text: string; data: ExplainJson }
  | { found: false; known: string[] };

/**
 * Explains where a server is defined and why it does or does not start, with
 * `@mcp-rt/config`'s own explain logic: secrets shown as `***`, and values
 * that came from a `${VAR}` expansion as the `${VAR}` their file writes.
 */
export async function explainServer(
  name: string,
  options: ExplainServerOptions,
): Promise<ExplainServerResult> {
  const [result, discovered] = await Promise.all([
    loadAllMCPConfigs(options.cwd, options.loadOptions),
    // The entries as written: a value a `${…}` expansion changed is shown as written.
    discoverEntries(options.cwd, options.loadOptions).catch(() => []),
  ]);
  const inventory = buildInventory(result, { discovered });
  const entries = entriesOf(inventory, name);
  if (!entries) return { found: false, known: knownNames(inventory) };
  const context = {
    cwd: options.cwd,
    homeDir: options.homeDir,
    trustCommand: "/mcp trust",
    reserveReasons: options.reserveReasons ?? {},
    showSecrets: false,
    env: options.loadOptions.env ?? process.env,
  };
  return {
    found: true,
    text: formatExplain({ name, entries }, context),
    data: explainJson({ name, entries }, context),
  };
}
