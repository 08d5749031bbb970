import type * as Client from "@mcp-rt/client";

/** `@mcp-rt/client`: the MCP SDK, the transports and their schemas. */
export type ClientModule = typeof Client;

let loading: Promise<ClientModule> | undefined;
let loaded: ClientModule | undefined;

/**
 * Loads `@mcp-rt/client` (once): the first attempt that connects does. The
 * manager imports it only through here, so that a warm start hands its tools
 * over from the cache before the SDK, the transports and their zod schemas
 * are loaded; they load while the servers are being started.
 */
export function loadClient(): Promise<ClientModule> {
  loading ??= import("@mcp-rt/client").then((client) => {
    loaded = client;
    return client;
  });
  return loading;
}

/**
 * The loaded client. Anything that holds a connection or an error from it may
 * call this: an attempt loaded the client to make them.
 *
 * @throws Error when `@mcp-rt/client` was not loaded yet (a bug in the caller).
 */
export function client(): ClientModule {
  if (!loaded) throw new Error("@mcp-rt/client is used before it was loaded");
  return loaded;
}
