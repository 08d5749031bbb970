// Internal: the `mcp-rt-config` CLI's inventory and explain logic, shared with
// mcp-rt's own packages (the session's `/mcp explain`). No semver promise.

export { approvalSummary, whatItRuns } from "./cli/approval-summary.js";
export { discoverEntries } from "./cli/discover-entries.js";
export type {
  ExplainContext,
  ExplainedServer,
  ExplainJson,
  ExplainJsonEntry,
} from "./cli/explain-command.js";
export { entriesOf, explainJson, formatExplain, knownNames } from "./cli/explain-command.js";
export type {
  InventoryEntry,
  InventoryExtras,
  ServerInventory,
  ServerStatus,
} from "./cli/server-inventory.js";
export { buildInventory } from "./cli/server-inventory.js";
export { POLICY_NAMES } from "./cli/status-reason.js";
