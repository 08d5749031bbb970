import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { MCPStdioServerConfig, MCPToolDefinition } from "@mcp-rt/config";
import { testCacheKey } from "./helpers.js";

/** The server config and working folder `fixtures/cache-cli.mjs` uses: read or write the same entry with them. */
export const cliConfig: MCPStdioServerConfig = { command: "node", args: ["server.js", "--stdio"] };
export const cliCwd = "/work/shared-project";

const script = fileURLToPath(new URL("./fixtures/cache-cli.mjs", import.meta.url));
const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));

/** What a finished `cache-cli.mjs` run left. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Fails clearly when the package was not built (the child process runs dist). */
export function assertBuilt(): void {
  if (!existsSync(dist))
    throw new Error("packages/cache/dist is missing: run `pnpm --filter @mcp-rt/cache build` first");
}

/** Options of {@link runCli}. */
export interface CliOptions {
  /** Tools for `set`, as JSON on stdin. */
  stdin?: MCPToolDefinition[];
  /** Killed after this long. @default 20000 */
  timeoutMs?: number;
  /** Variables on top of this process's; by default `CACHE_CLI_KEY` is {@link testCacheKey}. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs `cache-cli.mjs` in a child process. Its cache uses the key in
 * `CACHE_CLI_KEY` (the tests' key by default), or, when that is empty, the
 * installation's key file under `HOME`.
 */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const { stdin, timeoutMs = 20_000 } = options;
  const started = Date.now();
  const child = spawn(process.execPath, [script, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, CACHE_CLI_KEY: testCacheKey, ...options.env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin.end(stdin === undefined ? "" : JSON.stringify(stdin));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const [code] = (await once(child, "close")) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr, ms: Date.now() - started };
}
