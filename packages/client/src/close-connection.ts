import type { MCPServerConnection } from "./connection.js";
import { getConnectionInternals } from "./connection.js";

/**
 * Closes a connection: a stdio server's stdin ends, and its whole process
 * group gets SIGTERM after a short grace and SIGKILL after another. Resolves
 * once no process of the group runs. Idempotent: every call returns the same
 * promise, also after the server died on its own.
 */
export function closeConnection(connection: MCPServerConnection): Promise<void> {
  return getConnectionInternals(connection).close();
}
