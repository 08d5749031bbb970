#!/usr/bin/env node
// The root's `npm start` / `npm test`: works on a fresh clone with only Node and
// npm. It brings the pinned pnpm through npx when none is installed, installs
// the workspace when the lockfile is newer than node_modules, builds (turbo
// caches it), then runs the task.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const PNPM = "pnpm@12.4.2";
const [task, ...rest] = process.argv.slice(2);

function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: "inherit",
    shell: process.platform === "win32",
    ...options,
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function pnpmCommand() {
  const probe = spawnSync("pnpm", ["--version"], { encoding: "utf8", shell: process.platform === "win32" });
  if (probe.status === 0 && probe.stdout.trim() === PNPM.split("@")[1]) return ["pnpm", []];
  return ["npx", ["-y", PNPM]];
}

function mustRun(command, args) {
  const status = run(command, args);
  if (status !== 0) process.exit(status);
}

const [pnpm, pnpmPrefix] = pnpmCommand();
const installed = join(root, "node_modules", ".pnpm", "lock.yaml");
const lockfile = join(root, "pnpm-lock.yaml");
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lockfile).mtimeMs) {
  mustRun(pnpm, [...pnpmPrefix, "install", "--frozen-lockfile"]);
}
mustRun(pnpm, [...pnpmPrefix, "exec", "turbo", "run", "build", "--output-logs=errors-only"]);

const cwd = process.env.INIT_CWD ?? process.cwd();
switch (task) {
  case "test":
    process.exit(run(pnpm, [...pnpmPrefix, "exec", "vitest", "run", ...rest]));
    break;
  case "start":
    // The agent owns Ctrl-C (it cancels a tool call first); this wrapper must outlive it, not die on it.
    process.on("SIGINT", () => {});
    process.exit(run(process.execPath, [join(root, "apps/agent/dist/main.js"), "--cwd", cwd, ...rest]));
    break;
  default:
    console.error(`usage: node scripts/run.mjs <test|start> [args…] (got ${task ?? "nothing"})`);
    process.exit(2);
}
