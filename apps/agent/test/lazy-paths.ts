import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createAuthStorage } from "@mcp-rt/session";
import {
  contentServer,
  createBrowserStandIn,
  echoServer,
  fixtureServerPath,
  type HttpFixture,
  type OAuthFixture,
  type RedisServer,
  redisUnavailable,
  startHttpFixture,
  startOAuthFixture,
  startRedisServer,
} from "@mcp-rt/testing";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type AgentRun,
  assertBuilt,
  createSandbox,
  type LiveProcess,
  quote,
  runAgent,
  type Sandbox,
  startAgent,
  stopAgent,
  waitForNoProcesses,
} from "./agent-process.js";
import { type CodeCacheMode, makeCodeCache, prepareCodeCache } from "./code-cache-mode.js";

const SIGN_IN = /\nTo sign in, open this address in a browser:\n\n {2}(\S+)\n\n/;

/**
 * The paths of the built bin that load code only when they are used (a `!command` value's
 * child_process, the sign-in, Redis, the keychain, elicitation, the config writer), each started
 * as `mode` says. A start that prints anything on stderr fails: a warning of Node's is a defect.
 */
export function lazyPathSuite(mode: CodeCacheMode): void {
  describe(`what the bin loads late, ${mode} (code cache ${mode === "cold" ? "absent" : "accepted"})`, () => {
    let seed: Buffer | undefined;
    let sandbox: Sandbox;
    let agent: LiveProcess | undefined;
    const closers: Array<() => Promise<unknown>> = [];

    beforeAll(async () => {
      assertBuilt();
      if (mode === "warm") seed = await makeCodeCache();
    }, 60_000);
    beforeEach(async () => {
      sandbox = await createSandbox({ ownCodeCache: true });
      // No browser may open from a test: the sign-in address is printed instead, as on a server.
      delete sandbox.env.DISPLAY;
      delete sandbox.env.WAYLAND_DISPLAY;
    });
    afterEach(async () => {
      await stopAgent(agent);
      agent = undefined;
      for (const close of closers.splice(0)) await close();
      expect(await waitForNoProcesses(sandbox.marker)).toEqual([]);
      await sandbox.cleanup();
    });

    /** Runs the bin to its end, its code cache as `mode` says. */
    async function run(args: string[]): Promise<AgentRun> {
      const checkCodeCache = prepareCodeCache(sandbox, mode, seed);
      const result = await runAgent(args, sandbox);
      checkCodeCache();
      return result;
    }

    /** Starts the bin for a test that talks to it as it runs; `finish` waits for its end. */
    function start(args: string[]): { agent: LiveProcess; finish(): Promise<number | null> } {
      const checkCodeCache = prepareCodeCache(sandbox, mode, seed);
      const live = startAgent(sandbox, args);
      agent = live;
      return {
        agent: live,
        async finish() {
          const code = await live.exited;
          checkCodeCache();
          return code;
        },
      };
    }

    async function configFile(servers: Record<string, unknown>): Promise<string> {
      const path = join(sandbox.root, `${randomUUID()}.json`);
      await writeFile(path, JSON.stringify({ mcpServers: servers }));
      return path;
    }

    it("!command values in env and in a header reach their servers", async () => {
      const remote: HttpFixture = await startHttpFixture({ bearerToken: "tok-from-command" });
      closers.push(() => remote.close());
      // The server starts only if the value arrived: it checks its TOKEN before it runs.
      const server = [quote(process.execPath), quote(fixtureServerPath)].join(" ");
      const config = await configFile({
        local: {
          command: "/bin/sh",
          args: ["-c", `[ "$TOKEN" = from-command ] || exit 3; exec ${server}`],
          env: { TOKEN: "!printf from-command" },
        },
        remote: { url: remote.config.url, headers: { Authorization: "!printf 'Bearer tok-from-command'" } },
      });
      const result = await run([
        "--config",
        config,
        "--cache",
        "memory:",
        "--exec",
        '/call mcp_local_echo {"message":"from local"}',
        "--exec",
        '/call mcp_remote_echo {"message":"from remote"}',
      ]);
      expect(result.stderr).toBe("");
      expect(result.code, transcript(result)).toBe(0);
      expect(result.stdout).toMatch(/← mcp_local_echo \(\d+ ms\)\nfrom local/);
      expect(result.stdout).toMatch(/← mcp_remote_echo \(\d+ ms\)\nfrom remote/);
    });

    it("/mcp login with no browser: the printed address signs in; the next start uses the stored tokens", async () => {
      const oauth: OAuthFixture = await startOAuthFixture();
      closers.push(() => oauth.close());
      const config = await configFile({ remote: oauth.config() });
      const args = ["--config", config, "--cache", "memory:"];

      const first = start([...args, "--exec", "/mcp login remote", "--exec", "/call mcp_remote_whoami {}"]);
      await first.agent.waitFor(SIGN_IN);
      const address = SIGN_IN.exec(first.agent.stderr())?.[1];
      expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      await createBrowserStandIn().openUrl(address as string);
      expect(await first.finish()).toBe(0);
      expect(first.agent.output()).toMatch(/● remote: signed in .*; connected, 2 tools\./);
      expect(first.agent.output()).toMatch(/← mcp_remote_whoami \(\d+ ms\)\n.*mcp:read/);
      // Only the address a user needs, on stderr: nothing else.
      expect(first.agent.stderr().replace(SIGN_IN, "")).toBe("");

      const second = await run([...args, "--exec", "/call mcp_remote_whoami {}"]);
      expect(second.stderr).toBe("");
      expect(second.code, transcript(second)).toBe(0);
      expect(second.stdout).toMatch(/← mcp_remote_whoami \(\d+ ms\)\n.*mcp:read/);
      expect(oauth.counts).toMatchObject({ authorizations: 1 });
    });

    it("/mcp login on a desktop: the browser opens the address (the open package, xdg-open)", async () => {
      const oauth: OAuthFixture = await startOAuthFixture();
      closers.push(() => oauth.close());
      const config = await configFile({ remote: oauth.config() });
      // xdg-open on a display with no known desktop runs $BROWSER with the address: this one notes it.
      const opened = join(sandbox.root, "opened.txt");
      const browser = join(sandbox.root, "browser.sh");
      await writeFile(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> ${quote(opened)}\n`, { mode: 0o755 });
      Object.assign(sandbox.env, { DISPLAY: ":99", BROWSER: browser });
      for (const name of [
        "XDG_CURRENT_DESKTOP",
        "DESKTOP_SESSION",
        "SSH_CONNECTION",
        "SSH_CLIENT",
        "SSH_TTY",
      ])
        delete sandbox.env[name];

      const login = start(["--config", config, "--cache", "memory:", "--exec", "/mcp login remote"]);
      await expect.poll(() => readFile(opened, "utf8").catch(() => ""), { timeout: 15_000 }).toMatch(/^http/);
      await createBrowserStandIn().openUrl((await readFile(opened, "utf8")).trim());
      expect(await login.finish(), login.agent.output()).toBe(0);
      expect(login.agent.output()).toMatch(/● remote: signed in .*; connected, 2 tools\./);
      expect(login.agent.stderr()).toBe("");
    });

    // In CI a missing redis-server fails this test; elsewhere it is skipped.
    const noRedis = redisUnavailable();
    it.skipIf(noRedis !== undefined && process.env.CI !== "true")(
      "--cache and --auth on Redis: the key is read from it and the tools are cached in it",
      async () => {
        if (noRedis) throw new Error(noRedis);
        const redis: RedisServer = await startRedisServer();
        closers.push(() => redis.stop());
        const keyed = await startHttpFixture({ bearerToken: "k-in-redis" });
        closers.push(() => keyed.close());
        const keys = createAuthStorage(redis.url);
        await keys.set("keyed-key", "k-in-redis");
        await keys.close?.();
        const config = await configFile({
          keyed: { url: keyed.config.url, auth: { type: "apikey", credentialId: "keyed-key" } },
        });
        const args = ["--config", config, "--cache", redis.url, "--auth", redis.url];

        const first = await run([...args, "--exec", '/call mcp_keyed_echo {"message":"via redis"}']);
        expect(first.stderr).toBe("");
        expect(first.code, transcript(first)).toBe(0);
        expect(first.stdout).toMatch(/← mcp_keyed_echo \(\d+ ms\)\nvia redis/);
        // The tool cache's entry is there beside the key.
        expect(redisKeyCount(redis.port)).toBeGreaterThanOrEqual(2);
      },
    );

    it("--auth keychain: loads the OS keychain's module, and says what it cannot do", async () => {
      const keyed = await startHttpFixture({ bearerToken: "k-in-keychain" });
      closers.push(() => keyed.close());
      const config = await configFile({
        keyed: {
          url: keyed.config.url,
          auth: { type: "apikey", credentialId: `mcp-rt-test-${randomUUID()}` },
        },
      });
      const result = await run([
        "--config",
        config,
        "--cache",
        "memory:",
        "--auth",
        `keychain:mcp-rt-test-${randomUUID()}`,
        "--exec",
        "/mcp list",
      ]);
      expect(result.stderr).toBe("");
      expect(result.code, transcript(result)).toBe(0);
      // A keychain that works has no such key yet; one that does not (no Secret Service) says why.
      expect(result.stdout).toMatch(
        /✗ keyed: .*needs the API key .*(not in the auth storage|OS keychain could not)/,
      );
    });

    it("an elicitation answered with the form's defaults", async () => {
      const config = await configFile({ notes: contentServer() });
      const result = await run([
        "--config",
        config,
        "--cache",
        "memory:",
        "--elicitation",
        "accept-defaults",
        "--exec",
        '/call mcp_notes_ask {"optional": true}',
      ]);
      expect(result.stderr).toBe("");
      expect(result.code, transcript(result)).toBe(0);
      expect(result.stdout).toContain('answer: accept {"color":"green","ok":true}');
    });

    it("/mcp trust starts a project's server; /mcp add writes and starts one", async () => {
      await writeFile(
        join(sandbox.project, ".mcp.json"),
        JSON.stringify({ mcpServers: { proj: echoServer() } }),
      );
      const added = ["--", process.execPath, fixtureServerPath].map(quote).join(" ");
      const result = await run([
        "--cache",
        "memory:",
        "--exec",
        "/mcp trust",
        "--exec",
        `/mcp add extra ${added}`,
        "--exec",
        "/mcp list",
      ]);
      expect(result.stderr).toBe("");
      expect(result.code, transcript(result)).toBe(0);
      expect(result.stdout).toMatch(/● proj +connected/);
      expect(result.stdout).toMatch(/● extra +connected/);
    });
  });
}

/** A run's output, for the message of a failed assertion. */
function transcript(run: AgentRun): string {
  return `exit ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
}

/** How many keys the Redis on `port` holds. */
function redisKeyCount(port: number): number {
  const reply = spawnSync("redis-cli", ["-p", String(port), "dbsize"], { encoding: "utf8" });
  if (reply.status !== 0) throw new Error(`redis-cli failed: ${reply.stderr}`);
  return Number(reply.stdout.trim());
}
