import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callTool, type MCPServerConnection, type OAuthOptions } from "@mcp-rt/client";
import { type AuthStorage, createFileAuthStorage, McpRtError } from "@mcp-rt/config";
import {
  type BrowserStandIn,
  createBrowserStandIn,
  type OAuthFixture,
  type OAuthFixtureOptions,
  startOAuthFixture,
} from "@mcp-rt/testing";
import { afterEach, beforeEach, expect } from "vitest";

/** What an OAuth test gets: its fixtures (stopped after it), a browser, and a temp folder for auth files. */
export interface OAuthTestKit {
  /** Starts an authorization server and the MCP server it protects. */
  fixture(options?: OAuthFixtureOptions): Promise<OAuthFixture>;
  /** A fresh browser stand-in per test. */
  readonly browser: BrowserStandIn;
  /** A new file storage handle on this test's auth file (a second call is a "restart"). */
  fileStorage(): AuthStorage;
  /** The auth file. */
  readonly authFile: string;
  /** `oauth` options with the test's browser. */
  oauth(storage: AuthStorage, extra?: Partial<OAuthOptions>): OAuthOptions;
}

/**
 * Registers per-test setup and cleanup. Call it before `useConnections()`, so
 * that connections close before the servers they talk to.
 */
export function useOAuthKit(): OAuthTestKit {
  const started: OAuthFixture[] = [];
  const closedEarly = new WeakSet<OAuthFixture>();
  let dir = "";
  let browser: BrowserStandIn = createBrowserStandIn();
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcp-rt-oauth-"));
    browser = createBrowserStandIn();
  });
  afterEach(async () => {
    // A fixture a test closed itself freed its ports long ago; the OS may have handed them out again.
    const fixtures = started.splice(0).filter((fixture) => !closedEarly.has(fixture));
    await Promise.all(fixtures.map((fixture) => fixture.close()));
    await rm(dir, { recursive: true, force: true });
    const ports = fixtures.flatMap((fixture) => [new URL(fixture.url).port, new URL(fixture.issuer).port]);
    const taken = (
      await Promise.all(ports.map(async (port) => ((await isFree(Number(port))) ? [] : [port])))
    ).flat();
    if (taken.length > 0) throw new Error(`the OAuth fixtures left port(s) ${taken.join(", ")} in use`);
  });
  return {
    async fixture(options) {
      const fixture = await startOAuthFixture(options);
      started.push(fixture);
      const close = fixture.close.bind(fixture);
      fixture.close = () => {
        closedEarly.add(fixture);
        return close();
      };
      return fixture;
    },
    get browser() {
      return browser;
    },
    get authFile() {
      return join(dir, "auth.json");
    },
    fileStorage: () => createFileAuthStorage(join(dir, "auth.json")),
    oauth: (storage, extra = {}) => ({ storage, openUrl: browser.openUrl, ...extra }),
  };
}

async function isFree(port: number): Promise<boolean> {
  const probe = createServer();
  const free = await new Promise<boolean>((resolve) => {
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => resolve(true));
  });
  if (free) {
    probe.close();
    await once(probe, "close");
  }
  return free;
}

/** Every text an error carries: message, details and the messages of its causes. */
export function errorTexts(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (current instanceof Error) {
      parts.push(current.message, current.stack ?? "");
      if (McpRtError.isInstance(current)) parts.push(JSON.stringify(current.details ?? {}));
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return parts.join("\n");
}

/** Fails the test if any secret the fixture issued appears in `text`. */
export function expectNoSecrets(fixture: OAuthFixture, text: string): void {
  const secrets = fixture.secrets();
  expect(secrets.length).toBeGreaterThan(0);
  for (const secret of secrets)
    expect(text.includes(secret), `a secret leaked into: ${text.slice(0, 400)}`).toBe(false);
}

/** The text of a `whoami` call. */
export async function whoami(connection: MCPServerConnection): Promise<string> {
  const result = await callTool(connection, { name: "whoami", args: {} });
  return (result.content as Array<{ text: string }>)[0]?.text ?? "";
}

/** Resolves with what `promise` rejected with; fails when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<McpRtError> {
  const error = await promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
  expect(McpRtError.isInstance(error), String(error)).toBe(true);
  return error as McpRtError;
}
