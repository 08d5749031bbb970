import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { filterServerTools } from "../src/server/tool-exposure.js";
import { createMCPToolName, createMCPToolNames, TOOL_NAME_PATTERN } from "../src/tools/tool-catalog.js";

const def = (name: string) => ({ name, inputSchema: { type: "object" } });

describe("createMCPToolName", () => {
  it("builds mcp_<server>_<tool>, lower-cased, runs of other characters as one _", () => {
    expect(createMCPToolName("GitHub", "Create Issue")).toBe("mcp_github_create_issue");
    expect(createMCPToolName("my-server", "files.read--all")).toBe("mcp_my_server_files_read_all");
    expect(createMCPToolName("__x__", "..y..")).toBe("mcp_x_y");
  });

  it("keeps digits", () => {
    expect(createMCPToolName("s3", "get_object_v2")).toBe("mcp_s3_get_object_v2");
    expect(createMCPToolName("2fa", "123")).toBe("mcp_2fa_123");
  });

  it("turns dots and unicode into _ and trims them", () => {
    expect(createMCPToolName("docs.io", "café.résumé")).toBe("mcp_docs_io_caf_r_sum");
    expect(createMCPToolName("srv", "emoji🚀tool")).toBe("mcp_srv_emoji_tool");
  });

  it("gives a name made only of other characters a stable hash instead of nothing", () => {
    const name = createMCPToolName("srv", "日本語");
    expect(name).toMatch(/^mcp_srv_[0-9a-f]{8}$/);
    expect(createMCPToolName("srv", "日本語")).toBe(name);
    expect(createMCPToolName("srv", "中文")).not.toBe(name);
    expect(createMCPToolName("日本", "tool")).toMatch(/^mcp_[0-9a-f]{8}_tool$/);
  });

  it("drops a tool prefix equal to its server's name, only at a word boundary", () => {
    expect(createMCPToolName("github", "github_create_issue")).toBe("mcp_github_create_issue");
    expect(createMCPToolName("GitHub", "github.search")).toBe("mcp_github_search");
    expect(createMCPToolName("github", "githubby")).toBe("mcp_github_githubby");
    expect(createMCPToolName("github", "github")).toBe("mcp_github_github");
  });

  it("cuts 200-character names to 64 with a readable head and a hash of the full original", () => {
    const long = "a".repeat(200);
    const name = createMCPToolName("server", long);
    expect(name).toHaveLength(64);
    expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(name.startsWith("mcp_server_aaaa")).toBe(true);
    expect(name).toMatch(/_[0-9a-f]{8}$/);
    // Stable, and distinct from a name that differs only past the cut.
    expect(createMCPToolName("server", long)).toBe(name);
    expect(createMCPToolName("server", `${long}b`)).not.toBe(name);
    expect(createMCPToolName("s".repeat(200), "t")).toHaveLength(64);
  });

  it("does not leave __ before the hash when the cut falls on a separator", () => {
    const name = createMCPToolName("srv", `${"ab_".repeat(40)}`);
    expect(name).not.toMatch(/__/);
    expect(name.length).toBeLessThanOrEqual(64);
  });

  it("always matches the tool-name pattern", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 }), (server, tool) => {
        expect(createMCPToolName(server, tool)).toMatch(TOOL_NAME_PATTERN);
      }),
    );
  });
});

describe("createMCPToolNames", () => {
  it("never gives a tool a reserved name (a host's own tool's): it gets a hash suffix instead", () => {
    const reserved = new Set(["mcp_read_result", "mcp_tool_search"]);
    const names = createMCPToolNames(
      [
        { server: "read", tool: "result" },
        { server: "read", tool: "file" },
        { server: "tool", tool: "search" },
      ],
      { reserved },
    );
    expect(names[0]).toMatch(/^mcp_read_result_[0-9a-f]{8}$/);
    expect(names[1]).toBe("mcp_read_file");
    expect(names[2]).toMatch(/^mcp_tool_search_[0-9a-f]{8}$/);
    expect(createMCPToolNames([{ server: "read", tool: "result" }])).toEqual(["mcp_read_result"]);
  });

  it("leaves distinct names alone", () => {
    expect(
      createMCPToolNames([
        { server: "a", tool: "x" },
        { server: "a", tool: "y" },
      ]),
    ).toEqual(["mcp_a_x", "mcp_a_y"]);
  });

  it("gives both of two tools that sanitize alike a hash suffix", () => {
    const names = createMCPToolNames([
      { server: "srv", tool: "get-item" },
      { server: "srv", tool: "get.item" },
      { server: "srv", tool: "other" },
    ]);
    expect(names[0]).toMatch(/^mcp_srv_get_item_[0-9a-f]{8}$/);
    expect(names[1]).toMatch(/^mcp_srv_get_item_[0-9a-f]{8}$/);
    expect(names[0]).not.toBe(names[1]);
    expect(names[2]).toBe("mcp_srv_other");
  });

  it("resolves a clash between server a and server a_b, whatever their order", () => {
    const one = { server: "a", tool: "b_c" };
    const two = { server: "a_b", tool: "c" };
    const [n1, n2] = createMCPToolNames([one, two]);
    expect(n1).not.toBe(n2);
    expect(createMCPToolNames([two, one])).toEqual([n2, n1]);
    // Without the other, each keeps its plain name.
    expect(createMCPToolNames([one])).toEqual(["mcp_a_b_c"]);
  });

  it("gives the same pair listed twice the same name", () => {
    expect(
      createMCPToolNames([
        { server: "s", tool: "t" },
        { server: "s", tool: "t" },
      ]),
    ).toEqual(["mcp_s_t", "mcp_s_t"]);
  });

  it("survives a hostile tool named like another tool's hashed name", () => {
    const [first] = createMCPToolNames([
      { server: "evil", tool: "read" },
      { server: "evil", tool: "READ" },
    ]);
    const hostile = first!.slice("mcp_evil_".length);
    const names = createMCPToolNames([
      { server: "evil", tool: "read" },
      { server: "evil", tool: "READ" },
      { server: "evil", tool: hostile },
    ]);
    expect(new Set(names).size).toBe(3);
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
  });

  it("hashes a plain name that merely looks hashed, so it can never meet a hashed one", () => {
    const [name] = createMCPToolNames([{ server: "git", tool: "show_1234abcd" }]);
    expect(name).toMatch(/^mcp_git_show_1234abcd_[0-9a-f]{8}$/);
    // A name whose hash stands for an empty part is already its own hashed name.
    expect(createMCPToolNames([{ server: "srv", tool: "日本語" }])).toEqual([
      createMCPToolName("srv", "日本語"),
    ]);
  });

  it("a hostile server cannot take or chase another tool's name, however many tools it adds", () => {
    // Server `a` can produce `mcp_a_b_…` names, which look like server `a_b`'s.
    const victim = [
      { server: "a_b", tool: "echo" },
      { server: "a_b", tool: "ECHO" },
    ];
    const entries = [...victim, { server: "a", tool: "b_echo" }];
    const victimNames = createMCPToolNames(entries).slice(0, 2);
    for (let i = 0; i < 40; i++) {
      const names = createMCPToolNames(entries);
      expect(new Set(names).size).toBe(entries.length);
      expect(names.slice(0, 2)).toEqual(victimNames);
      // Each round the attacker adds a tool named exactly like a current name it does not have yet.
      const taken = new Set(entries.filter((e) => e.server === "a").map((e) => e.tool));
      const next = names.map((n) => n.slice("mcp_a_".length)).find((tool) => !taken.has(tool));
      entries.push({ server: "a", tool: next! });
    }
  });

  it("is unique for any set of distinct pairs", () => {
    const pair = fc.record({
      server: fc.constantFrom("a", "A", "a_b", "a-b"),
      tool: fc.string({ maxLength: 80 }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(pair, { selector: (p) => `${p.server}\u0000${p.tool}`, maxLength: 30 }),
        (pairs) => {
          const names = createMCPToolNames(pairs);
          expect(new Set(names).size).toBe(pairs.length);
          for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
        },
      ),
    );
  });
});

describe("filterServerTools", () => {
  const tools = ["read", "write", "delete"].map(def);

  it("keeps everything without filters", () => {
    expect(filterServerTools(tools, {}).map((t) => t.name)).toEqual(["read", "write", "delete"]);
  });

  it("keeps only includeTools, by original name", () => {
    expect(filterServerTools(tools, { includeTools: ["read", "nope"] }).map((t) => t.name)).toEqual(["read"]);
  });

  it("drops excludeTools, and exclude wins over include", () => {
    expect(filterServerTools(tools, { excludeTools: ["delete"] }).map((t) => t.name)).toEqual([
      "read",
      "write",
    ]);
    expect(
      filterServerTools(tools, { includeTools: ["read", "delete"], excludeTools: ["delete"] }).map(
        (t) => t.name,
      ),
    ).toEqual(["read"]);
  });

  it("keeps one of a tool the server listed twice", () => {
    expect(filterServerTools([def("x"), def("x")], {})).toHaveLength(1);
  });
});
