/**
 * The message of a thrown value, for a log line or an error text: its
 * `message`, else its name (an `Error` thrown with no message still says what
 * it was), else the value as a string.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** First line of an error's message, without "MCP error -32603: " prefixes. */
export function errorText(error: unknown): string {
  const message = errorMessage(error);
  // Servers on the v1 SDK relay their own errors with the prefix, sometimes twice.
  return message.replace(/^(MCP error -?\d+: )+/, "").split("\n")[0] ?? message;
}
