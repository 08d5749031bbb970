import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";

const verdaccio = createRequire(import.meta.url).resolve("verdaccio");

// Port 0: the OS picks a free port, and the server says which.
const SERVE = `
const { runServer } = require(process.argv[1]);
runServer(process.argv[2]).then(
  (app) => {
    const server = app.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
`;

/** A verdaccio registry on 127.0.0.1, for one test run. */
export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /**
   * The environment for `npm` and `pnpm` commands that must see only this
   * registry: the caller's, without any `npm_config_*` or token variable,
   * with a user `.npmrc` of its own (the registry, no token) and an npm
   * cache of its own (so neither the registry's packages nor `npx`'s
   * installs land in the user's cache).
   */
  readonly env: NodeJS.ProcessEnv;
  /** Stops the server (the caller removes `dir`). */
  stop(): Promise<void>;
}

/**
 * Starts verdaccio with everything under `dir`: its config, its storage, a
 * `.npmrc` and an npm cache. `@mcp-rt/*` lives only here: anyone may publish
 * it, with no token, and it is never looked up upstream. Every other package
 * comes through an uplink to the public registry, read-only. Publishing to
 * the public registry is impossible with what it hands out: no token exists
 * anywhere, and callers pass `--registry` with {@link LocalRegistry.url}.
 */
export async function startLocalRegistry(dir: string): Promise<LocalRegistry> {
  await mkdir(join(dir, "storage"), { recursive: true });
  const config = join(dir, "config.yaml");
  // YAML is a superset of JSON.
  await writeFile(
    config,
    JSON.stringify({
      storage: join(dir, "storage"),
      auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: -1 } },
      uplinks: { npmjs: { url: "https://registry.npmjs.org/", timeout: "60s" } },
      packages: {
        "@mcp-rt/*": { access: "$all", publish: "$anonymous" },
        "**": { access: "$all", publish: "$authenticated", proxy: "npmjs" },
      },
      web: { enable: false },
      max_body_size: "100mb",
      log: { type: "stdout", format: "json", level: "error" },
    }),
  );
  const child = spawn(process.execPath, ["-e", SERVE, verdaccio, config], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  try {
    const port = await listeningPort(child);
    const url = `http://127.0.0.1:${port}/`;
    const npmrc = join(dir, "npmrc");
    await writeFile(npmrc, `registry=${url}\n`);
    return { url, env: registryEnv(npmrc, join(dir, "npm-cache"), url), stop: () => stop(child) };
  } catch (error) {
    await stop(child);
    throw error;
  }
}

/** The port the server prints once it listens; rejects when it exits first or takes over a minute. */
function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => done(new Error(`verdaccio did not start in 60 s: ${stderr}`)), 60_000);
    const done = (error: Error | undefined, port?: number): void => {
      clearTimeout(timer);
      child.stdout?.removeAllListeners("data");
      child.removeAllListeners("exit");
      if (error) reject(error);
      else resolve(port!);
    };
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const port = /\{"port":(\d+)\}/.exec(stdout)?.[1];
      if (port) done(undefined, Number(port));
    });
    child.on("exit", (code) =>
      done(new Error(`verdaccio exited (code ${code}) before it listened: ${stderr}`)),
    );
  });
}

function registryEnv(npmrc: string, cache: string, url: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_)|token/i.test(name)) continue;
    env[name] = value;
  }
  return {
    ...env,
    npm_config_userconfig: npmrc,
    npm_config_registry: url,
    npm_config_cache: cache,
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
  };
}

/** Kills the server: what it stored is thrown away with its folder, so there is nothing to shut down cleanly. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  await exited;
}
