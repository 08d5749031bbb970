/** `timeout` used when a config has none: connect + `tools/list`, in ms. */
export const DEFAULT_CONNECT_TIMEOUT_MS: number = 30_000;
