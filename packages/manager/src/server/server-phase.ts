/**
 * Where one server is in its life (docs/architecture.md, "The life of one server"):
 * - `idle`: known (from its config source) but not running: never started,
 *   disabled, or dropped with reconnecting off;
 * - `connecting`: an attempt is resolving its config and doing the handshake;
 * - `listing`: the handshake succeeded, the first `tools/list` is running;
 * - `connected`: live, its tools are the server's own;
 * - `backing-off`: in an outage (it dropped, or an automatic attempt failed):
 *   the next automatic attempt waits out its backoff (during that attempt the
 *   phase is `connecting`/`listing` again; the public status is `reconnecting`
 *   throughout);
 * - `failed`: the last attempt failed, or reconnecting gave up;
 * - `needs-auth`: a remote server that needs the user to sign in (again):
 *   it waits for `login`, never for a reconnect timer.
 */
export type ServerPhase =
  | "idle"
  | "connecting"
  | "listing"
  | "connected"
  | "backing-off"
  | "failed"
  | "needs-auth";

/**
 * What happens to a server, as its phase sees it:
 * - `start`: an attempt starts (first start, on purpose, a sign-in, or an automatic reconnect);
 * - `handshake`: the attempt's handshake succeeded (again, when a stale era verdict was asked anew);
 * - `listed`: the attempt listed the tools and is committed;
 * - `retry`: an automatic attempt failed and another one is scheduled;
 * - `drop`: the live connection went away and an automatic attempt follows;
 * - `close`: the live connection went away and nothing follows (reconnecting is off);
 * - `fail`: the config or an attempt failed, or reconnecting gave up;
 * - `sign-in-needed`: the server needs the user to sign in.
 */
export type ServerEvent =
  | "start"
  | "handshake"
  | "listed"
  | "retry"
  | "drop"
  | "close"
  | "fail"
  | "sign-in-needed";

/** Every phase, in the order of a server's life. */
export const SERVER_PHASES: readonly ServerPhase[] = [
  "idle",
  "connecting",
  "listing",
  "connected",
  "backing-off",
  "failed",
  "needs-auth",
];

/** Every event. */
export const SERVER_EVENTS: readonly ServerEvent[] = [
  "start",
  "handshake",
  "listed",
  "retry",
  "drop",
  "close",
  "fail",
  "sign-in-needed",
];

/** Whatever a server does, it can be started on purpose, fail, or need a sign-in. */
const ALWAYS = { start: "connecting", fail: "failed", "sign-in-needed": "needs-auth" } as const;

/**
 * The one table of a server's phases: phase × event → next phase. An event a
 * phase does not list is not allowed in it (`nextPhase` returns `undefined`).
 */
export const TRANSITIONS: Readonly<Record<ServerPhase, Readonly<Partial<Record<ServerEvent, ServerPhase>>>>> =
  {
    idle: { ...ALWAYS },
    connecting: { ...ALWAYS, handshake: "listing", retry: "backing-off" },
    listing: { ...ALWAYS, handshake: "listing", listed: "connected", retry: "backing-off" },
    connected: { ...ALWAYS, drop: "backing-off", close: "idle" },
    "backing-off": { ...ALWAYS },
    failed: { ...ALWAYS },
    "needs-auth": { ...ALWAYS },
  };

/** The phase `event` leads to from `phase`; `undefined` when the table does not allow it. */
export function nextPhase(phase: ServerPhase, event: ServerEvent): ServerPhase | undefined {
  return TRANSITIONS[phase][event];
}
