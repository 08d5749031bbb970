/**
 * Words people and tools use for the same thing. A task says "folder", "save"
 * or "open the site"; a tool says "directory", "write" or "navigate". Each
 * group is the everyday vocabulary of tools an agent meets (files, browsers,
 * memory, docs, issue trackers, messaging), not of any one server. A query
 * word also searches for the other words of its groups, at a lower weight
 * than the word itself (see `ToolIndex`).
 */
const GROUPS: readonly string[] = [
  "directory folder dir",
  "write save store",
  "delete remove erase forget discard",
  "create make new add open",
  "read get fetch retrieve load view download",
  "navigate open goto visit browse",
  "url link website site webpage address",
  "list show enumerate ls",
  "search find lookup query look locate",
  "edit modify change update patch replace",
  "move rename relocate",
  "run execute evaluate eval",
  "screenshot capture snapshot",
  "image picture photo png jpg jpeg",
  "sum add total plus",
  "echo repeat",
  "remember memory memorize recall",
  "relation relationship link connection",
  "observation fact note",
  "think reason reasoning",
  "docs documentation doc manual reference",
  "issue bug ticket task",
  "pr pull",
  "repo repository project",
  "env environment variable",
  "compress zip gzip archive",
  "dialog alert popup confirm",
  "key keyboard shortcut keystroke",
  "dropdown select option combobox",
  "size big large bytes",
  "video screencast recording",
  "css style stylesheet",
  "trace profile performance",
  "user member people",
  "comment reply",
  "database db table data sql",
  "append insert",
  "paragraph block",
  "property field attribute",
  "library package framework module",
  "id identifier",
  "shell terminal command bash",
  "stop close terminate quit exit kill",
  "start begin launch trigger",
  "tree structure hierarchy",
  "send post",
  "message chat",
  "email mail",
  "calendar event meeting schedule",
  "file readme",
  "directions route drive driving travel",
  "elevation altitude height high",
  "geocode coordinates latitude longitude",
  "workflow pipeline ci",
  "diff difference compare",
  "checkout switch",
  "error exception crash failure",
  "deploy release publish",
  "vulnerability alert security",
  "notification inbox",
  "timezone zone",
  "container docker",
];

/**
 * From a stemmed word to the stemmed words of its groups (without itself),
 * built with the index's own stemmer so both sides meet.
 */
export function synonymTable(stem: (word: string) => string): ReadonlyMap<string, readonly string[]> {
  const table = new Map<string, Set<string>>();
  for (const group of GROUPS) {
    const words = group.split(" ").map(stem);
    for (const word of words) {
      const related = table.get(word) ?? new Set<string>();
      for (const other of words) if (other !== word) related.add(other);
      table.set(word, related);
    }
  }
  return new Map([...table].map(([word, related]) => [word, [...related]]));
}
