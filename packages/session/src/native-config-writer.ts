import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { mcpRtPath } from "@mcp-rt/config";
import { errorMessage, writeJsonAtomic } from "@mcp-rt/config/util";
import { type MCPServerConfig, McpRtError, validateServerConfig } from "@mcp-rt/manager";
import { assertServerName } from "./server-name.js";

/** Which native file: `~/.mcp-rt/mcp.json` (`user`) or `<cwd>/.mcp-rt/mcp.json` (`project`). */
export type ConfigScope = "user" | "project";

/** Options of {@link createNativeConfigWriter}. */
export interface NativeConfigWriterOptions {
  /** The project folder; the project file is `<cwd>/.mcp-rt/mcp.json`. */
  cwd: string;
  /** The user's home; the user file is `<homeDir>/.mcp-rt/mcp.json`. @default os.homedir() */
  homeDir?: string;
}

/** The native file's content as read; `rest` keeps every other top-level field. */
export interface NativeConfigFile {
  /** The file this content came from. */
  path: string;
  /** False when the file does not exist yet. */
  exists: boolean;
  /** Server entries, exactly as written (unknown fields included). */
  mcpServers: Record<string, Record<string, unknown>>;
  /** Names of servers (from any client's file) that mcp-rt must not start. */
  disabledServers: string[];
  /** Names of servers (from any client's file) whose tools the model always gets (`/mcp pin`). */
  alwaysLoadServers: string[];
}

/** A server entry of a native file, as `addServer` writes it. */
export interface NativeServerEntry {
  /** The server's name. */
  name: string;
  /** Its config, as written to the file. */
  config: MCPServerConfig;
  /** Which native file: `~/.mcp-rt/mcp.json` (`user`) or `.mcp-rt/mcp.json` (`project`). */
  scope: ConfigScope;
}

/**
 * Edits mcp-rt's own config files: `{ "mcpServers": {…}, "disabledServers": […] }`.
 * Every write is atomic (temp file + rename), the file gets mode 0600 and a
 * folder it creates 0700, and every field it does not manage is kept. A file
 * that cannot be parsed is never overwritten: the call throws `CONFIG_INVALID`.
 * Other clients' files are never touched; a server defined there is turned off
 * through `disabledServers`.
 */
export interface NativeConfigWriter {
  /** The native file of a scope. */
  pathOf(scope: ConfigScope): string;
  /** Reads a native file; a missing file reads as empty. */
  read(scope: ConfigScope): Promise<NativeConfigFile>;
  /** Adds a server entry; throws when the name is taken in that file or the config is invalid. Returns the file. */
  addServer(entry: NativeServerEntry): Promise<string>;
  /** Removes a server entry (and its `disabledServers` mention); throws when it is not in that file. Returns the file. */
  removeServer(name: string, scope: ConfigScope): Promise<string>;
  /**
   * Turns a server off: `enabled: false` on its entry when the `scope` file
   * defines it, otherwise its name in that file's `disabledServers`. Returns the file.
   */
  disableServer(name: string, scope: ConfigScope): Promise<string>;
  /**
   * Removes everything in the native files that turns this server off (its
   * `disabledServers` mentions and `enabled: false` on native entries). Returns the files changed.
   */
  enableServer(name: string): Promise<string[]>;
  /**
   * Pins a server (`/mcp pin`: its tools always go to the model, tool search
   * or not) or unpins it. Pinning sets `alwaysLoad: true` on its native
   * entries, or, for a server defined in another client's file, names it in
   * the user file's `alwaysLoadServers`. Unpinning removes both everywhere.
   * Returns the files changed.
   */
  setAlwaysLoad(name: string, pinned: boolean): Promise<string[]>;
}

type RawFile = Record<string, unknown> & {
  mcpServers?: Record<string, Record<string, unknown>>;
  disabledServers?: string[];
  alwaysLoadServers?: string[];
};

// One queue per file for the whole process, so two writers (or two commands
// at once) never lose each other's read-modify-write.
const queues = new Map<string, Promise<unknown>>();

/**
 * Creates the writer of mcp-rt's native config files.
 *
 * @example
 * ```ts
 * const writer = createNativeConfigWriter({ cwd: process.cwd() });
 * await writer.addServer("docs", { url: "https://example.com/mcp" }, "user");
 * ```
 */
export function createNativeConfigWriter(options: NativeConfigWriterOptions): NativeConfigWriter {
  const pathOf = (scope: ConfigScope): string =>
    mcpRtPath("mcp.json", scope === "user" ? options.homeDir : resolve(options.cwd));

  const update = (scope: ConfigScope, change: (file: RawFile, path: string) => boolean): Promise<boolean> => {
    const path = pathOf(scope);
    const next = (queues.get(path) ?? Promise.resolve()).then(async () => {
      const { raw } = await readRaw(path);
      if (!change(raw, path)) return false;
      await writeJsonAtomic(path, raw, { mode: 0o600, dirMode: 0o700 });
      return true;
    });
    const settled = next.catch(() => undefined);
    queues.set(path, settled);
    void settled.then(() => {
      if (queues.get(path) === settled) queues.delete(path);
    });
    return next;
  };

  return {
    pathOf,
    async read(scope) {
      const path = pathOf(scope);
      const { raw, exists } = await readRaw(path);
      return {
        path,
        exists,
        mcpServers: { ...raw.mcpServers },
        disabledServers: [...(raw.disabledServers ?? [])],
        alwaysLoadServers: [...(raw.alwaysLoadServers ?? [])],
      };
    },
    async addServer({ name, config, scope }) {
      assertServerName(name);
      const problems = validateServerConfig(name, config);
      if (problems.length > 0) {
        throw new McpRtError("CONFIG_INVALID", `Server "${name}" is not valid: ${problems.join("; ")}.`, {
          server: name,
        });
      }
      await update(scope, (raw, path) => {
        raw.mcpServers ??= {};
        const servers = raw.mcpServers;
        if (Object.hasOwn(servers, name)) {
          throw new McpRtError(
            "CONFIG_INVALID",
            `Server "${name}" already exists in ${path}; remove it first or pick another name.`,
            { server: name },
          );
        }
        servers[name] = { ...config } as Record<string, unknown>;
        return true;
      });
      return pathOf(scope);
    },
    async removeServer(name, scope) {
      assertServerName(name);
      await update(scope, (raw, path) => {
        if (!raw.mcpServers || !Object.hasOwn(raw.mcpServers, name)) {
          throw new McpRtError("UNKNOWN_SERVER", `Server "${name}" is not defined in ${path}.`, {
            server: name,
          });
        }
        delete raw.mcpServers[name];
        if (raw.disabledServers) raw.disabledServers = raw.disabledServers.filter((entry) => entry !== name);
        return true;
      });
      return pathOf(scope);
    },
    async disableServer(name, scope) {
      assertServerName(name);
      await update(scope, (raw) => {
        const entry = raw.mcpServers?.[name];
        if (entry !== undefined && Object.hasOwn(raw.mcpServers!, name)) {
          if (entry.enabled === false) return false;
          entry.enabled = false;
          return true;
        }
        raw.disabledServers ??= [];
        const list = raw.disabledServers;
        if (list.includes(name)) return false;
        list.push(name);
        return true;
      });
      return pathOf(scope);
    },
    async enableServer(name) {
      assertServerName(name);
      const changed: string[] = [];
      for (const scope of ["user", "project"] as const) {
        const didChange = await update(scope, (raw) => {
          let touched = false;
          if (raw.disabledServers?.includes(name)) {
            raw.disabledServers = raw.disabledServers.filter((entry) => entry !== name);
            touched = true;
          }
          const entry =
            raw.mcpServers && Object.hasOwn(raw.mcpServers, name) ? raw.mcpServers[name] : undefined;
          if (entry?.enabled === false) {
            delete entry.enabled;
            touched = true;
          }
          return touched;
        });
        if (didChange) changed.push(pathOf(scope));
      }
      return changed;
    },
    async setAlwaysLoad(name, pinned) {
      assertServerName(name);
      const changed: string[] = [];
      let native = false;
      for (const scope of ["user", "project"] as const) {
        const didChange = await update(scope, (raw) => {
          let touched = false;
          const entry =
            raw.mcpServers && Object.hasOwn(raw.mcpServers, name) ? raw.mcpServers[name] : undefined;
          if (entry !== undefined) native = true;
          if (pinned && entry !== undefined && entry.alwaysLoad !== true) {
            entry.alwaysLoad = true;
            touched = true;
          }
          if (!pinned && entry?.alwaysLoad !== undefined) {
            delete entry.alwaysLoad;
            touched = true;
          }
          if (!pinned && raw.alwaysLoadServers?.includes(name)) {
            raw.alwaysLoadServers = raw.alwaysLoadServers.filter((entry) => entry !== name);
            touched = true;
          }
          return touched;
        });
        if (didChange) changed.push(pathOf(scope));
      }
      if (pinned && !native) {
        const listed = await update("user", (raw) => {
          raw.alwaysLoadServers ??= [];
          if (raw.alwaysLoadServers.includes(name)) return false;
          raw.alwaysLoadServers.push(name);
          return true;
        });
        if (listed) changed.push(pathOf("user"));
      }
      return changed;
    },
  };
}

async function readRaw(path: string): Promise<{ raw: RawFile; exists: boolean }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { raw: {}, exists: false };
    throw new McpRtError("CONFIG_UNREADABLE", `Cannot read ${path}: ${errorMessage(error)}.`, {
      cause: error,
    });
  }
  if (text.trim() === "") return { raw: {}, exists: true };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new McpRtError(
      "CONFIG_INVALID",
      `${path} is not valid JSON (${errorMessage(error)}); fix it by hand, mcp-rt will not overwrite it.`,
      { cause: error },
    );
  }
  const problem = shapeProblem(json);
  if (problem !== undefined) {
    throw new McpRtError(
      "CONFIG_INVALID",
      `${path}: ${problem}; fix it by hand, mcp-rt will not overwrite it.`,
    );
  }
  return { raw: json as RawFile, exists: true };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function shapeProblem(json: unknown): string | undefined {
  if (!isObject(json)) return "the file must hold a JSON object";
  if (json.mcpServers !== undefined) {
    if (!isObject(json.mcpServers)) return "mcpServers: must be an object of server entries";
    for (const [name, entry] of Object.entries(json.mcpServers)) {
      if (!isObject(entry)) return `mcpServers.${name}: must be an object`;
    }
  }
  for (const key of ["disabledServers", "alwaysLoadServers"] as const) {
    const list = json[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((item) => typeof item !== "string"))) {
      return `${key}: must be an array of server names`;
    }
  }
  return undefined;
}
