import { createRequire } from "node:module";
import { type AuthStorage, McpRtError } from "@mcp-rt/config";
import { errorMessage } from "@mcp-rt/config/util";

/** The part of `@napi-rs/keyring` the keychain storage uses. */
export interface KeyringModule {
  AsyncEntry: new (
    service: string,
    account: string,
  ) => {
    getPassword(): Promise<string | null | undefined>;
    setPassword(password: string): Promise<void>;
    deletePassword(): Promise<boolean>;
  };
}

/** Options of {@link createKeychainAuthStorage}. */
export interface KeychainAuthStorageOptions {
  /** The keychain service the entries are filed under. @default "mcp-rt" */
  service?: string;
  /** Loads `@napi-rs/keyring`; tests replace it. @default require("@napi-rs/keyring") */
  load?: () => KeyringModule;
}

const INSTALL = "install it next to mcp-rt (npm install @napi-rs/keyring) or use a file: auth storage";

function loadKeyring(): KeyringModule {
  // A native addon (CommonJS): loading it synchronously lets a missing one fail here, not at first use.
  return createRequire(import.meta.url)("@napi-rs/keyring") as KeyringModule;
}

/**
 * An {@link AuthStorage} in the OS keychain (macOS Keychain, Windows
 * Credential Manager, the Secret Service on Linux) through the optional
 * dependency `@napi-rs/keyring`. Each key is one entry of `service`. Windows
 * limits an entry to 2560 bytes, which a large OAuth sign-in can exceed.
 *
 * @throws McpRtError `CONFIG_INVALID` when `@napi-rs/keyring` is not
 *   installed or does not load on this platform.
 */
export function createKeychainAuthStorage(options: KeychainAuthStorageOptions = {}): AuthStorage {
  const service = options.service ?? "mcp-rt";
  let keyring: KeyringModule;
  try {
    keyring = (options.load ?? loadKeyring)();
  } catch (error) {
    throw new McpRtError(
      "CONFIG_INVALID",
      `The keychain: auth storage needs the optional dependency @napi-rs/keyring, which could not be loaded (${errorMessage(error)}); ${INSTALL}.`,
      { cause: error },
    );
  }
  const run = async <T>(what: string, key: string, action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      throw new Error(
        `The OS keychain could not ${what} "${key}" (service "${service}"): ${errorMessage(error)}; unlock the keychain, or use a file: auth storage`,
        { cause: error },
      );
    }
  };
  const entry = (key: string) => new keyring.AsyncEntry(service, key);
  return {
    get: (key) => run("read", key, async () => (await entry(key).getPassword()) ?? undefined),
    set: (key, value) => {
      if (typeof value !== "string") {
        return Promise.reject(new TypeError(`auth storage values must be strings, got ${typeof value}`));
      }
      return run("store", key, () => entry(key).setPassword(value));
    },
    delete: (key) =>
      run("delete", key, async () => {
        await entry(key).deletePassword();
      }),
  };
}
