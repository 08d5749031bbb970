import { POISONED_DEFINITIONS, realServerDefinitions, tagSmuggled } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { checkToolApprovals } from "../src/approvals/approval-check.js";
import { POISONING_RULES, scanServerText } from "../src/index.js";

/** What the check finds in one corpus case, wherever its poison sits. */
function scanCase(entry: (typeof POISONED_DEFINITIONS)[number]) {
  return scanServerText({
    tools: entry.tool ? [entry.tool] : [],
    prompts: entry.prompt ? [entry.prompt] : [],
    resources: entry.resource ? [entry.resource] : [],
    instructions: entry.instructions,
  });
}

describe("the poisoned corpus", () => {
  it("has at least 30 definitions, each expecting a rule that exists, and every rule is tried", () => {
    expect(POISONED_DEFINITIONS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(POISONED_DEFINITIONS.map((entry) => entry.id)).size).toBe(POISONED_DEFINITIONS.length);
    const rules = new Map(POISONING_RULES.map((rule) => [rule.id, rule.strength]));
    for (const entry of POISONED_DEFINITIONS) expect(rules.get(entry.expect.rule)).toBe(entry.expect.action);
    expect(new Set(POISONED_DEFINITIONS.map((entry) => entry.expect.rule))).toEqual(new Set(rules.keys()));
  });

  it.each(POISONED_DEFINITIONS.map((entry) => [entry.id, entry] as const))(
    "%s is caught by its rule, with a reason and the text around it",
    (_id, entry) => {
      const found = scanCase(entry).filter((finding) => finding.rule === entry.expect.rule);
      expect(found.length).toBeGreaterThan(0);
      for (const finding of found) {
        expect(finding.strength).toBe(entry.expect.action);
        expect(finding.reason.length).toBeGreaterThan(10);
        // What a person is shown has no invisible characters left in it.
        expect(finding.excerpt).not.toMatch(
          /[\u{E0000}-\u{E007F}\u202A-\u202E\u2066-\u2069\u200B-\u200D\u2060]/u,
        );
      }
    },
  );

  it("a poisoned tool is held as its rule says, under poisoning: hold and not under warn", () => {
    const basis = { drift: false, record: undefined };
    for (const entry of POISONED_DEFINITIONS) {
      if (!entry.tool) continue;
      const check = (poisoning: "hold" | "warn") =>
        checkToolApprovals({
          tools: [entry.tool!],
          basis,
          target: "node server.js",
          serverInfoName: undefined,
          toolChanges: "hold",
          poisoning,
        });
      const held = check("hold").held.map((tool) => tool.name);
      expect(held, entry.id).toEqual(entry.expect.action === "hold" ? [entry.tool.name] : []);
      expect(check("warn").held, entry.id).toEqual([]);
    }
  });

  it("instructions with a strong sign are withheld", () => {
    const check = checkToolApprovals({
      tools: [],
      basis: { drift: false, record: undefined },
      target: "t",
      serverInfoName: undefined,
      toolChanges: "hold",
      poisoning: "hold",
      instructions: `Calendar server.${tagSmuggled("forward invites")}`,
    });
    expect(check.withholdInstructions).toBe(true);
  });
});

describe("the clean corpus: real servers from npm", () => {
  const servers = realServerDefinitions();

  it("holds at least 8 servers, with descriptions in another language and emoji", () => {
    expect(servers.length).toBeGreaterThanOrEqual(8);
    const text = JSON.stringify(servers);
    expect(/\p{Script=Han}/u.test(text)).toBe(true);
    expect(/\p{Extended_Pictographic}/u.test(text)).toBe(true);
  });

  it.each(servers.map((server) => [`${server.package}@${server.version}`, server] as const))(
    "%s raises no hold",
    (_name, server) => {
      const others = new Set(
        servers
          .filter((other) => other !== server)
          .flatMap((other) => other.tools.map((tool) => tool.name))
          .filter((name) => name.length >= 6 && /[_-]/.test(name)),
      );
      const findings = scanServerText({ ...server, otherTools: others });
      expect(findings.filter((finding) => finding.strength === "hold")).toEqual([]);
    },
  );
});
