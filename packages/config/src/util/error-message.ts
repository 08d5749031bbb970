/**
 * The message of a thrown value, for a log line or an error text: its
 * `message`, else its name (an `Error` thrown with no message still says what
 * it was), else the value as a string.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
