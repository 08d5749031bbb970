import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { MCPStdioServerConfig, MCPToolDefinition } from "@mcp-rt/config";

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

/** Runs `cache-cli.mjs` in a child process; kills it after `timeoutMs`. */
export async function runCli(
  args: string[],
  stdin?: MCPToolDefinition[],
  timeoutMs = 20_000,
): Promise<CliRun> {
  const started = Date.now();
  const child = spawn(process.execPath, [script, ...args], { stdio: ["pipe", "pipe", "pipe"] });
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
