import type { MCPServerConnection } from "./connection.js";
import { getConnectionInternals } from "./connection.js";

/**
 * Closes a connection: a stdio server's stdin ends, and its whole process
 * group gets SIGTERM after a short grace and SIGKILL after another; resolves
 * once no process of the group runs. A Streamable HTTP session is ended with
 * an HTTP `DELETE` first (a 405 answer is fine; at most 2 s), then every open
 * request and stream is aborted. Idempotent: every call returns the same
 * promise, also after the server went away on its own.
 */
export function closeConnection(connection: MCPServerConnection): Promise<void> {
  return getConnectionInternals(connection).close();
}
