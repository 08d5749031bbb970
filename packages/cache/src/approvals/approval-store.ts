/**
 * Where approvals are kept, as `MCPToolApprovals` uses it: one value per
 * server (its record), and beside it the approved definitions, read only to
 * show a diff. Values are plain JSON; signing, ids and shapes are the
 * caller's. `get` returns `undefined` for a missing value and throws when the
 * store cannot be read.
 */
export interface ApprovalStore {
  /** Where it is, for messages (a folder, a redacted URL, `memory:`). */
  readonly where: string;
  /** The record stored under `id`. */
  get(id: string): Promise<unknown>;
  /** Stores the record of `id`. */
  set(id: string, value: unknown): Promise<void>;
  /** The approved definitions stored beside the record of `id`. */
  getDefinitions(id: string): Promise<unknown>;
  /** Stores the approved definitions of `id`. */
  setDefinitions(id: string, value: unknown): Promise<void>;
  /** Lets go of what it holds open (a connection); idempotent. */
  close(): Promise<void>;
}
