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
import { EXA_REASON } from "./exa-rule.js";

/** Options of {@link explainServer}. */
export interface ExplainServerOptions {
  cwd: string;
  homeDir: string;
  /** The session's discovery options, so the answer matches what the session does. */
  loadOptions: LoadConfigsOptions;
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
    reserveReasons: {
      [EXA_REASON]: "an Exa server, left out because the session uses its native Exa tool instead",
    },
    showSecrets: false,
    env: options.loadOptions.env ?? process.env,
  };
  return {
    found: true,
    text: formatExplain({ name, entries }, context),
    data: explainJson({ name, entries }, context),
  };
}
