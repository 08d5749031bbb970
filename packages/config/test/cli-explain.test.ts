// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in fixture configs are part of what is tested
import { describe, expect, it } from "vitest";
import type { ExplainJson } from "../src/cli/explain-command.js";
import { CLI_SECRETS, useCliFixture, writeAt } from "./helpers.js";

// The built bin, run as a user runs it, over a fixture home and project.
const fx = useCliFixture();
const { GH_TOKEN, PROJECT_KEY, URL_TOKEN, BAD_URL_TOKEN, OPAQUE } = CLI_SECRETS;

describe("mcp-rt-config explain", () => {
  it("hides every secret unless --show-secrets", () => {
    for (const name of ["github", "docs", "lint"]) {
      const { code, stdout } = fx.cli("explain", name);
      expect(code).toBe(0);
      expect(stdout).not.toContain(GH_TOKEN);
      expect(stdout).not.toContain(PROJECT_KEY);
      expect(stdout).not.toContain(URL_TOKEN);
      const json = fx.cli("explain", name, "--json").stdout;
      expect(json).not.toContain(GH_TOKEN);
      expect(json).not.toContain(PROJECT_KEY);
      expect(json).not.toContain(URL_TOKEN);
    }
    const github = fx.cli("explain", "github").stdout;
    expect(github).toContain('"Authorization": "Bearer ${env:GH_TOKEN}"');
    expect(fx.cli("explain", "github", "--show-secrets").stdout).toContain(`Bearer ${GH_TOKEN}`);
    expect(fx.cli("explain", "lint", "--show-secrets").stdout).toContain(PROJECT_KEY);
    expect(fx.cli("explain", "docs", "--show-secrets").stdout).toContain(URL_TOKEN);
  });

  it("shows every source of a name; a project entry waiting for approval does not shadow the user's", () => {
    const json = JSON.parse(fx.cli("explain", "docs", "--json").stdout) as ExplainJson;
    expect(json.status).toBe("active");
    expect(json.entries.map((e) => [e.provider, e.status, e.winner])).toEqual([
      ["cursor", "active", true],
      ["claude-code", "needs approval", true],
    ]);
    expect(json.entries[0]?.config).toEqual({ url: "https://docs.example/mcp?token=***&lang=en" });
    expect(json.entries[0]?.pendingChange).toMatch(/^the project's \.mcp\.json would replace it/);
    const text = fx.cli("explain", "docs").stdout;
    expect(text).toContain(
      "held back: the project's .mcp.json would replace it with its own entry of the same name; that waits until the project is approved (`mcp-rt-config trust`)",
    );
  });

  it("hides secrets quoted by validation messages of invalid entries", () => {
    const outputs = [
      fx.cli("list").stdout,
      fx.cli("list", "--json").stdout,
      fx.cli("explain", "badurl").stdout,
      fx.cli("explain", "badurl", "--json").stdout,
    ];
    for (const out of outputs) {
      expect(out).toContain("badurl");
      expect(out).not.toContain(BAD_URL_TOKEN);
      expect(out).not.toContain("12345678901");
    }
    expect(fx.cli("explain", "badurl").stdout).toMatch(/problems:\n\s+- .*url.*token=\*\*\*/);
    expect(fx.cli("explain", "badurl", "--show-secrets").stdout).toContain(BAD_URL_TOKEN);
  });

  it("hides secrets in env, headers and args of the wrong shape, and keeps placeholders readable", async () => {
    await writeAt(fx.project, ".mcp.json", {
      mcpServers: {
        argobj: { command: "x", args: ["--key", { password: "s3cret-obj" }, ["s3cret-arr"]] },
        envobj: { command: "x", env: { TOKEN: { v: "s3cret-envobj" }, PIN: 4321, FLAG: ["s3cret-envarr"] } },
        hdrarr: { type: "http", url: "https://h/x", headers: ["Authorization: Bearer s3cret-hdrarr"] },
        hdrstr: { type: "http", url: "https://h/x", headers: "Bearer s3cret-hdrstr" },
        envstr: { command: "x", env: "TOKEN=s3cret-envstr" },
        noturl: { type: "http", url: "not a url with token=s3cret-noturl" },
        unset: { type: "http", url: "https://h/x", headers: { Authorization: "Bearer ${NOT_SET_ANYWHERE}" } },
      },
    });
    const names = ["argobj", "envobj", "hdrarr", "hdrstr", "envstr", "noturl", "unset"];
    const outputs = [fx.cli("list").stdout, fx.cli("list", "--json").stdout];
    for (const name of names)
      outputs.push(fx.cli("explain", name).stdout, fx.cli("explain", name, "--json").stdout);
    for (const out of outputs) {
      expect(out).not.toMatch(/s3cret|4321/);
    }
    expect(fx.cli("explain", "unset").stdout).toContain("${NOT_SET_ANYWHERE} in headers.Authorization");
    expect(fx.cli("explain", "envobj", "--show-secrets").stdout).toContain("s3cret-envobj");
  });

  it("shows what came from a variable as the variable, in args too (mcp-remote and docker forms)", async () => {
    const literalPat = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
    const zapier = "ZjNmYTk0ZDItM2Q1Ny00YjQ2LWE2NjAtOTBkMmQ5NzFmYzQ3OjE4ZGJkY2Vk";
    await writeAt(fx.project, ".mcp.json", {
      mcpServers: {
        remote: {
          command: "npx",
          args: ["mcp-remote", "https://h.example/mcp", "--header", "Authorization: Bearer ${GH_TOKEN}"],
        },
        docker: {
          command: "docker",
          args: [
            "run",
            "-e",
            "GITHUB_PERSONAL_ACCESS_TOKEN=${GH_TOKEN}",
            "-e",
            `OTHER_TOKEN=${literalPat}`,
            "img",
          ],
        },
        opaque: { command: "tool", args: ["--mode", "${OPAQUE_ARG}"], cwd: "${OPAQUE_ARG}" },
        zapier: { url: `https://mcp.zapier.com/api/mcp/s/${zapier}/mcp` },
        badvar: { url: "${OPAQUE_ARG}" },
      },
    });
    const outputs: string[] = [fx.cli("list").stdout, fx.cli("list", "--json").stdout];
    for (const name of ["remote", "docker", "opaque", "zapier", "badvar"])
      outputs.push(fx.cli("explain", name).stdout, fx.cli("explain", name, "--json").stdout);
    for (const out of outputs) {
      expect(out).not.toContain(GH_TOKEN);
      expect(out).not.toContain(OPAQUE);
      expect(out).not.toContain(literalPat);
      expect(out).not.toContain(zapier);
    }
    const remote = JSON.parse(fx.cli("explain", "remote", "--json").stdout) as ExplainJson;
    expect(remote.entries[0]?.config).toMatchObject({
      args: ["mcp-remote", "https://h.example/mcp", "--header", "Authorization: Bearer ${GH_TOKEN}"],
    });
    const docker = JSON.parse(fx.cli("explain", "docker", "--json").stdout) as ExplainJson;
    expect(docker.entries[0]?.config).toMatchObject({
      args: ["run", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN=${GH_TOKEN}", "-e", "OTHER_TOKEN=***", "img"],
    });
    expect(fx.cli("explain", "opaque").stdout).toContain('"${OPAQUE_ARG}"');
    expect(fx.cli("explain", "zapier").stdout).toContain("https://mcp.zapier.com/api/mcp/s/***/mcp");
    expect(fx.cli("explain", "badvar").stdout).toMatch(/problems:\n\s+- .*url.*\$\{OPAQUE_ARG\}/);
    expect(fx.cli("explain", "docker", "--show-secrets").stdout).toContain(GH_TOKEN);
  });

  it("explains disabled and invalid servers", () => {
    const old = fx.cli("explain", "old").stdout;
    expect(old).toContain("disabledServers");
    expect(old).toContain("config (as its file has it)");
    expect(fx.cli("explain", "github").stdout).toContain("config (variables expanded)");
    const broken = fx.cli("explain", "broken");
    expect(broken.code).toBe(0);
    expect(broken.stdout).toContain('Server "broken": invalid');
    expect(broken.stdout).toMatch(/problems:\n\s+- .*command/);
  });

  it("exits 1 for an unknown name and lists the known ones", () => {
    const { code, stdout, stderr } = fx.cli("explain", "nope");
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain('no server named "nope"');
    expect(stderr).toContain("Known servers: badurl, broken, docs, exa, github, lint, old");
  });
});

describe("mcp-rt-config explain: the protocol setting", () => {
  it("shows auto for other clients' entries and what mcp-rt's own file says", async () => {
    // Claude Code's file has no such field: a `protocol` written there is not read.
    await writeAt(fx.project, ".mcp.json", {
      mcpServers: { plain: { command: "node", protocol: "legacy" } },
    });
    await writeAt(fx.project, ".mcp-rt/mcp.json", {
      mcpServers: {
        modern: { url: "https://m.example/mcp", protocol: "2026-07-28" },
        old: { command: "x", protocol: "legacy" },
      },
    });
    expect(fx.cli("explain", "plain").stdout).toMatch(
      /protocol: auto \(asks the server with server\/discover/,
    );
    expect(fx.cli("explain", "modern").stdout).toContain("protocol: 2026-07-28 (only that revision");
    expect(fx.cli("explain", "old").stdout).toContain(
      "protocol: legacy (initialize, 2025-11-25 and before; no probe)",
    );
    const json = JSON.parse(fx.cli("explain", "plain", "--json").stdout) as ExplainJson;
    expect(json.entries[0]?.protocol).toBe("auto");
  });
});
