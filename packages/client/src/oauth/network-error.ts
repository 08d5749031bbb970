// Here because a sign-in recognises an authorization server it cannot reach as the rest of the
// client recognises a server it cannot reach, and oauth/ imports nothing from the rest of the client.

/** The system error behind a failed `fetch` (`ECONNREFUSED`, `ENOTFOUND`…), if there is one. */
export function networkErrorOf(error: unknown): { code: string; message: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === "string" && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code)) {
      return { code, message: current.message };
    }
    current = current.cause;
  }
  return undefined;
}
