import { homedir } from "node:os";
import { fileURLToPath } from "node:url";
import { createFileAuthStorage } from "../file-auth-storage.js";
import { mcpRtPath } from "../mcp-rt-path.js";
import { createMemoryAuthStorage } from "../memory-auth-storage.js";
import type { AuthStorage } from "../model/auth-storage.js";
import { displayPath } from "../util/display-path.js";
import type { CommandOutcome } from "./trust-command.js";

/** What `key set|delete` needs from the outside world. */
export interface KeyCommandIo {
  /** Reads the key without echoing it (a no-echo prompt on a terminal, else all of stdin). */
  readSecret(prompt: string): Promise<string>;
  cwd: string;
  homeDir: string;
  /** Opens the storage `--auth` names. @default file and memory stores, as {@link openKeyStorage} */
  openAuthStorage?(url: string | undefined): KeyStorage;
}

/** An {@link AuthStorage} with words for where it keeps keys. */
export interface KeyStorage {
  storage: AuthStorage;
  /** e.g. `~/.mcp-rt/auth.json`, `memory (gone when this command exits)`. */
  where: string;
}

/** Thrown for a bad `--auth` value or arguments; the CLI reports it as wrong usage. */
export class KeyUsageError extends Error {}

// OAuth sign-ins live beside API keys under this prefix; an API key must not overwrite one.
const RESERVED_PREFIX = "oauth:";

/**
 * The storage an `--auth` URL names: none or `file:` is `~/.mcp-rt/auth.json`,
 * `file:/path`, `file:///path` or `file:~/path` another file, `memory:` this
 * process only.
 */
export function openKeyStorage(
  url: string | undefined,
  context: { cwd: string; homeDir: string },
): KeyStorage {
  const trimmed = url?.trim();
  if (trimmed === undefined || trimmed === "" || trimmed === "file:") {
    const path = mcpRtPath("auth.json", context.homeDir);
    return { storage: createFileAuthStorage(path), where: displayPath(path, context) };
  }
  if (trimmed === "memory:") {
    return {
      storage: createMemoryAuthStorage(),
      where: "memory (gone when this command exits; use file: to keep it)",
    };
  }
  if (trimmed.startsWith("file:")) {
    let path = trimmed.slice("file:".length);
    if (path.startsWith("//")) {
      try {
        path = fileURLToPath(trimmed);
      } catch {
        throw new KeyUsageError(`--auth ${trimmed} is not a usable file URL; use file:/path/to/auth.json`);
      }
    } else if (path === "~" || path.startsWith("~/")) {
      path = `${homedir()}${path.slice(1)}`;
    }
    return { storage: createFileAuthStorage(path), where: displayPath(path, context) };
  }
  throw new KeyUsageError(
    `--auth ${trimmed} is not supported here; use file: (the default), file:/path/to/auth.json or memory: ` +
      "(Redis and keychain stores are opened by agents, through @mcp-rt/cache's createAuthStorage)",
  );
}

/**
 * `key set <credentialId>` stores an API key (read without echo) under
 * `credentialId`, where servers with `auth: { type: "apikey", credentialId }`
 * find it; `key delete <credentialId>` removes it. The key never appears in
 * the output.
 */
export async function keyCommand(
  args: readonly string[],
  authUrl: string | undefined,
  io: KeyCommandIo,
): Promise<CommandOutcome> {
  const [action, credentialId, ...extra] = args;
  if ((action !== "set" && action !== "delete") || credentialId === undefined || extra.length > 0) {
    throw new KeyUsageError("usage: key set <credentialId> | key delete <credentialId>");
  }
  if (credentialId.trim() === "") throw new KeyUsageError("the credential id must not be empty");
  if (credentialId.startsWith(RESERVED_PREFIX)) {
    throw new KeyUsageError(
      `credential ids starting with "${RESERVED_PREFIX}" are reserved for OAuth sign-ins`,
    );
  }
  const { storage, where } = (io.openAuthStorage ?? ((url) => openKeyStorage(url, io)))(authUrl);
  try {
    if (action === "delete") {
      const known = (await storage.get(credentialId)) !== undefined;
      if (known) await storage.delete(credentialId);
      return {
        text: known
          ? `Deleted the API key "${credentialId}" from ${where}.\n`
          : `There is no API key "${credentialId}" in ${where}; nothing was deleted.\n`,
        exitCode: 0,
      };
    }
    const key = await io.readSecret(`API key for "${credentialId}" (input hidden): `);
    if (key.trim() === "") {
      return { text: `No API key was entered; nothing was stored under "${credentialId}".\n`, exitCode: 1 };
    }
    await storage.set(credentialId, key);
    return {
      text:
        `Stored the API key "${credentialId}" in ${where}. Servers with ` +
        `"auth": { "type": "apikey", "credentialId": "${credentialId}" } send it.\n`,
      exitCode: 0,
    };
  } finally {
    await storage.close?.();
  }
}
