import { readFile, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { AuthStorage } from "../src/model/auth-storage.js";
import { McpRtError } from "../src/model/errors.js";
import type { MCPHttpServerConfig, MCPStdioServerConfig } from "../src/model/server-config.js";
import { resolveServerConfig } from "../src/resolve-server-config.js";
import { memoryAuth, useTempDir } from "./helpers.js";

const tempDir = useTempDir("mcp-rt-resolve-");
let dir: string;
beforeEach(() => {
  dir = tempDir();
});

async function rejection(promise: Promise<unknown>): Promise<McpRtError> {
  try {
    await promise;
  } catch (error) {
    if (McpRtError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

// A killed process whose parent is gone may stay a zombie until init reaps it;
// it is dead all the same.
async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  return !/^\d+ \(.*\) Z/.test(stat);
}

describe("resolveServerConfig: !command values", () => {
  it("replaces env and header values with the command's trimmed stdout, without changing the input", async () => {
    const stdio: MCPStdioServerConfig = {
      command: "server",
      env: { TOKEN: `!printf '  tok-${dir.length}  \\n\\n'`, PLAIN: "plain", BANG: "!!literal" },
    };
    const before = structuredClone(stdio);
    const resolved = (await resolveServerConfig({ name: "s", config: stdio })) as MCPStdioServerConfig;
    expect(resolved.env).toEqual({ TOKEN: `tok-${dir.length}`, PLAIN: "plain", BANG: "!literal" });
    expect(stdio).toEqual(before);
    expect(resolved).not.toBe(stdio);

    const http: MCPHttpServerConfig = { url: "https://h/mcp", headers: { "X-Key": `!echo hdr-${dir}` } };
    const out = (await resolveServerConfig({ name: "h", config: http })) as MCPHttpServerConfig;
    expect(out.headers).toEqual({ "X-Key": `hdr-${dir}` });
    expect(http.headers!["X-Key"]).toBe(`!echo hdr-${dir}`);
  });

  it("runs commands in the given folder", async () => {
    const resolved = (await resolveServerConfig({
      name: "s",
      config: { command: "x", env: { WHERE: "!pwd" } },
      cwd: dir,
    })) as MCPStdioServerConfig;
    expect(resolved.env!.WHERE).toBe(await realpath(dir));
  });

  it("fails with SHELL_FAILED naming server and field, never echoing the command or its output", async () => {
    const config: MCPStdioServerConfig = {
      command: "x",
      env: { API_TOKEN: "!echo sk-inline-secret-123; echo sk-stderr-secret >&2; exit 3" },
    };
    const error = await rejection(resolveServerConfig({ name: "github", config }));
    expect(error.code).toBe("SHELL_FAILED");
    expect(error.server).toBe("github");
    expect(error.message).toContain('"github"');
    expect(error.message).toContain("env.API_TOKEN");
    expect(error.message).toContain("exited with code 3");
    const everything = JSON.stringify({ message: error.message, details: error.details, stack: error.stack });
    expect(everything).not.toMatch(/sk-inline-secret|sk-stderr-secret|echo/);
  });

  it("fails when the command prints nothing", async () => {
    const error = await rejection(
      resolveServerConfig({
        name: "s",
        config: { url: "https://h/", headers: { Authorization: `!true ${dir}` } },
      }),
    );
    expect(error.code).toBe("SHELL_FAILED");
    expect(error.message).toContain("headers.Authorization printed nothing");
  });

  it("kills a command that runs past the limit, with everything it started", async () => {
    const pidFile = join(dir, "pid");
    const started = Date.now();
    const error = await rejection(
      resolveServerConfig({
        name: "slow",
        config: { command: "x", env: { T: `!sleep 30 & echo $! > ${pidFile}; wait` } },
        shellTimeoutMs: 300,
      }),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error.code).toBe("SHELL_FAILED");
    expect(error.message).toContain("did not finish within 300 ms");
    const pid = Number(await readFile(pidFile, "utf8"));
    const deadline = Date.now() + 3000;
    while ((await isAlive(pid)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await isAlive(pid)).toBe(false);
  });

  it("runs a command once per process and shares a run already in flight", async () => {
    const counter = join(dir, "count");
    const command = `!echo run >> ${counter}; sleep 0.3; echo value-${dir.length}`;
    const config: MCPStdioServerConfig = { command: "x", env: { A: command } };
    const results = await Promise.all([
      resolveServerConfig({ name: "a", config }),
      resolveServerConfig({ name: "b", config: { command: "y", env: { B: command } } }),
      resolveServerConfig({ name: "a", config }),
    ]);
    expect(results.map((r) => (r as MCPStdioServerConfig).env)).toEqual([
      { A: `value-${dir.length}` },
      { B: `value-${dir.length}` },
      { A: `value-${dir.length}` },
    ]);
    await resolveServerConfig({ name: "a", config });
    expect((await readFile(counter, "utf8")).trim().split("\n")).toEqual(["run"]);
  });

  it("does not keep failures: the next connect runs the command again", async () => {
    const flag = join(dir, "logged-in");
    const config: MCPStdioServerConfig = { command: "x", env: { A: `!test -f ${flag} && echo ok` } };
    expect((await rejection(resolveServerConfig({ name: "s", config }))).code).toBe("SHELL_FAILED");
    await writeFile(flag, "");
    expect(((await resolveServerConfig({ name: "s", config })) as MCPStdioServerConfig).env).toEqual({
      A: "ok",
    });
  });
});

describe("resolveServerConfig: API keys", () => {
  it("sends the key as a Bearer header over HTTP, replacing any Authorization header", async () => {
    const config: MCPHttpServerConfig = {
      url: "https://h/mcp",
      headers: { authorization: "old", "X-Other": "1" },
      auth: { type: "apikey", credentialId: "acme" },
    };
    const resolved = (await resolveServerConfig({
      name: "acme",
      config,
      authStorage: memoryAuth({ acme: "key-123" }),
    })) as MCPHttpServerConfig;
    expect(resolved.headers).toEqual({ "X-Other": "1", Authorization: "Bearer key-123" });
    expect(config.headers).toEqual({ authorization: "old", "X-Other": "1" });
  });

  it("sends the key as MCP_API_KEY to a stdio server", async () => {
    const resolved = (await resolveServerConfig({
      name: "local",
      config: { command: "x", env: { A: "1" }, auth: { type: "apikey", credentialId: "k" } },
      authStorage: memoryAuth({ k: "key-456" }),
    })) as MCPStdioServerConfig;
    expect(resolved.env).toEqual({ A: "1", MCP_API_KEY: "key-456" });
  });

  it("fails with AUTH_REQUIRED saying what to do when the key is missing", async () => {
    const config: MCPHttpServerConfig = { url: "https://h/", auth: { type: "apikey", credentialId: "acme" } };
    const missing = await rejection(
      resolveServerConfig({ name: "acme-srv", config, authStorage: memoryAuth() }),
    );
    expect(missing.code).toBe("AUTH_REQUIRED");
    expect(missing.message).toContain('"acme-srv"');
    expect(missing.message).toContain('store it under "acme"');

    const noStorage = await rejection(resolveServerConfig({ name: "acme-srv", config }));
    expect(noStorage.code).toBe("AUTH_REQUIRED");
    expect(noStorage.message).toContain("authStorage");

    const broken: AuthStorage = { ...memoryAuth(), get: async () => Promise.reject(new Error("disk gone")) };
    const unreadable = await rejection(
      resolveServerConfig({ name: "acme-srv", config, authStorage: broken }),
    );
    expect(unreadable.code).toBe("AUTH_REQUIRED");
    expect(unreadable.cause).toBeInstanceOf(Error);
  });

  it("leaves OAuth configs to the client", async () => {
    const config: MCPHttpServerConfig = { url: "https://h/", auth: { type: "oauth", scope: "read" } };
    expect(await resolveServerConfig({ name: "o", config })).toEqual(config);
  });
});
