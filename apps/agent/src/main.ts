#!/usr/bin/env node
import { existsSync, statSync } from "node:fs";
import { errorStack, readSecret } from "@mcp-rt/config/util";
import type { AuthStorage, MCPToolCache } from "@mcp-rt/session";
import { createAgentLogger } from "./agent-logger.js";
import { type AgentArgs, parseAgentArgs, USAGE } from "./args.js";
import { createCommands, HELP } from "./commands.js";
import { createElicitationHandler, type QuestionAsker } from "./elicitation.js";
import { createLineRunner, type LineRunner } from "./line-runner.js";
import type { Model } from "./model.js";
import { createOfflineModel } from "./offline-model.js";
import { createOpenAIModel } from "./openai-model.js";
import { createOutput, type Output } from "./output.js";
import { createPromptWriter, runRepl, type SecretReader } from "./repl.js";
import { followServers } from "./server-notices.js";
import {
  CacheUrlError,
  openAuthStore,
  openToolCache,
  type StartedSession,
  startSession,
} from "./start-session.js";
import { createStartupView } from "./startup-view.js";
import { terminalSafe } from "./terminal-text.js";

/** How long exit waits for servers to close before it gives up on them (the manager kills them well before). */
const CLOSE_LIMIT_MS = 15_000;

function fatal(message: string): number {
  process.stderr.write(`mcp-rt-agent: ${message}\nRun mcp-rt-agent --help for the options.\n`);
  return 2;
}

/** Checks what the file system must agree with before anything starts. */
function checkPaths(args: AgentArgs): string | undefined {
  if (!existsSync(args.cwd) || !statSync(args.cwd).isDirectory()) return `--cwd ${args.cwd} is not a folder`;
  if (args.config && !existsSync(args.config)) return `--config ${args.config}: no such file`;
  return undefined;
}

function createModel(args: AgentArgs, env: NodeJS.ProcessEnv): Model {
  if (args.model === "offline") return createOfflineModel();
  return createOpenAIModel({
    model: args.modelName,
    cwd: args.cwd,
    ...(env.OPENAI_BASE_URL ? { baseUrl: env.OPENAI_BASE_URL } : {}),
    ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
  });
}

/** Runs `--exec` lines in order; stops at a Ctrl-C. Exit code 1 when a line failed. */
async function runExec(lines: string[], runner: LineRunner, output: Output): Promise<number> {
  let code = 0;
  let stop = false;
  const onInterrupt = (): void => {
    stop = true;
    if (runner.interrupt() === "exit") process.exit(130);
  };
  process.on("SIGINT", onInterrupt);
  try {
    for (const line of lines) {
      if (stop) break;
      if (output.json === false) output.write("result", `› ${line}`, {});
      const outcome = await runner.run(line);
      if (outcome === "quit") break;
      if (outcome === "failed") code = 1;
      if (outcome === "cancelled") return 130;
    }
  } finally {
    process.off("SIGINT", onInterrupt);
  }
  return stop ? 130 : code;
}

async function main(argv: string[]): Promise<number> {
  const parsed = parseAgentArgs(argv);
  if (!parsed.ok) return fatal(parsed.error);
  const { args } = parsed;
  if (args.help) {
    process.stdout.write(`${USAGE}\n\n${HELP}\n`);
    return 0;
  }
  const problem = checkPaths(args);
  if (problem) return fatal(problem);

  // SIGTERM and SIGHUP (a supervisor, a closed terminal) at any moment: stop the servers, then exit with
  // 128 + the signal's number. Installed before anything starts: during startup the signal aborts it (the
  // servers still starting are stopped), after it the session is closed.
  const startup = new AbortController();
  let started: StartedSession | undefined;
  let stopCode: number | undefined;
  let closing: Promise<number> | undefined;
  const close = (code: number): Promise<number> => {
    closing ??= (async () => {
      const limit = setTimeout(() => process.exit(code), CLOSE_LIMIT_MS);
      limit.unref();
      await started?.close();
      clearTimeout(limit);
      return code;
    })();
    return closing;
  };
  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const) {
    process.once(signal, () => {
      stopCode ??= code;
      // Startup unwinds first (main closes after it); a running session is closed from here.
      if (started) void close(code).then((exit) => process.exit(exit));
      else startup.abort();
    });
  }

  // A reader that went away (`mcp-rt-agent --exec "/mcp list" | head -1`): stop the servers and
  // leave as a program ended by SIGPIPE does (128 + 13), not with an unhandled EPIPE and its stack.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    stopCode ??= 141;
    if (started) void close(141).then((exit) => process.exit(exit));
    else startup.abort();
  });

  const interactive = args.exec.length === 0;
  const terminal = interactive && !args.json && process.stdin.isTTY === true && process.stdout.isTTY === true;
  const writer = createPromptWriter(process.stdout);
  let starting = true;
  const output = createOutput({
    json: args.json,
    // On a terminal the startup view redraws its lines in place: until it is done, output goes around them.
    write: (chunk) => (starting ? view.write(chunk) : writer.write(chunk)),
  });
  const view = createStartupView({
    output,
    ...(process.stdout.isTTY && !args.json ? { terminal: process.stdout } : {}),
  });
  const logger = createAgentLogger(output);
  let cache: MCPToolCache;
  let authStorage: AuthStorage;
  try {
    authStorage = openAuthStore(args.auth);
    cache = await openToolCache(args.cache, logger);
  } catch (error) {
    if (error instanceof CacheUrlError) return fatal(error.message);
    throw error;
  }
  // `/mcp key` reads from stdin until the REPL takes over the terminal (then with echo off).
  const secrets: SecretReader = {
    read: (prompt) => readSecret(process.stdin, process.stderr, prompt),
  };
  // The REPL puts its question asker here while it runs on a terminal; servers' questions use it.
  const questions: { asker?: QuestionAsker | undefined } = {};
  const onElicitation = createElicitationHandler({
    mode: args.elicitation,
    output,
    asker: () => (terminal ? questions.asker : undefined),
  });
  const model = createModel(args, process.env);
  output.write("status", `mcp-rt agent · model: ${model.description}`, { event: "start", cwd: args.cwd });

  // Ctrl-C while servers start: stop them and exit; twice: exit now.
  const onStartupInterrupt = (): void => {
    if (startup.signal.aborted) process.exit(130);
    output.write("notice", "Ctrl-C: stopping the servers… (Ctrl-C again to quit at once)", {
      event: "interrupt",
    });
    stopCode ??= 130;
    startup.abort();
  };
  process.on("SIGINT", onStartupInterrupt);
  try {
    started = await startSession({
      args,
      view,
      logger,
      cache,
      authStorage,
      readSecret: (prompt, signal) => secrets.read(prompt, signal),
      onElicitation,
      signal: startup.signal,
    });
  } finally {
    starting = false;
    process.off("SIGINT", onStartupInterrupt);
  }
  if (stopCode !== undefined) return close(stopCode);
  // The bin (scripts/main-loader.cjs) writes its V8 code cache now, when it has none: the start path's code.
  (process as NodeJS.EventEmitter).emit("mcp-rt-agent:start-path-done");

  const runner = createLineRunner(
    createCommands({ session: started.session, mcp: started.mcp, model, output }),
    output,
  );
  const manager = started.session.mcpManager;
  if (manager) followServers({ manager, output, running: () => runner.running });
  if (!interactive) return close(await runExec(args.exec, runner, output));

  if (terminal) output.write("status", "Type /help for the commands, /quit to leave.", { event: "ready" });
  const reason = await runRepl({
    runner,
    output,
    writer,
    input: process.stdin,
    stream: process.stdout,
    terminal,
    secrets,
    questions,
  });
  output.write("status", "Disconnecting MCP servers…", { event: "exit", reason });
  return close(0);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`mcp-rt-agent: ${terminalSafe(errorStack(error))}\n`);
    process.exit(1);
  },
);
