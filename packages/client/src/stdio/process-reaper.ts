import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { firstSettled } from "@mcp-rt/config/util";

/** The name the reaper runs under (its `$0`), so `ps` says what it is. */
const REAPER_NAME = "mcp-rt-reaper";

/** How long the last close waits for the dismissed reaper to exit (it takes about a millisecond). */
const EXIT_WAIT_MS = 1000;
/** The longest grace the reaper gives (a day): a limit of "no limit" still ends. */
const MAX_GRACE_MS = 86_400_000;

/**
 * The reaper itself, a POSIX shell script (about 2 MB resident, most of it
 * the shared C library; no Node start-up). It reads `+<pgid>:<graceMs>` (a group to watch) and
 * `-<pgid>` (a group that ended) lines from the pipe to the host. End of
 * input means the host is gone: every group still listed gets SIGTERM, then
 * SIGKILL once the longest grace among them has passed (or sooner, when they
 * are all gone), and the reaper exits. A group id of 0 or 1 would signal far
 * more than a server, so such lines are ignored.
 */
const SCRIPT = `
groups=
while IFS= read -r line; do
  case $line in
    +*) pgid=\${line#+}; [ "\${pgid%%:*}" -gt 1 ] 2>/dev/null && groups="$groups $pgid" ;;
    -*) kept=; for g in $groups; do [ "\${g%%:*}" = "\${line#-}" ] || kept="$kept $g"; done; groups=$kept ;;
  esac
done
wait_ms=0
for g in $groups; do
  [ "\${g#*:}" -gt "$wait_ms" ] && wait_ms=\${g#*:}
  kill -s TERM -- "-\${g%%:*}" 2>/dev/null
done
while [ -n "$groups" ] && [ "$wait_ms" -gt 0 ]; do
  alive=
  for g in $groups; do kill -s 0 -- "-\${g%%:*}" 2>/dev/null && alive="$alive $g"; done
  groups=$alive
  [ -n "$groups" ] && sleep 0.1
  wait_ms=$((wait_ms - 100))
done
for g in $groups; do kill -s KILL -- "-\${g%%:*}" 2>/dev/null; done
exit 0
`;

/**
 * The watchdog of this host: one small process, for every server it runs,
 * that ends their process groups when the host dies without running its exit
 * hook (SIGKILL, an out-of-memory kill, a crash in native code). It holds the
 * read end of a pipe whose write end only the host has; the kernel closes
 * that end however the host dies, and the reaper takes that as its cue.
 *
 * It is started when the first group is watched, one launch turn later (so
 * the first server's launch is not held up by a second fork), and told to go
 * (its pipe is closed, with nothing listed) when the last group has ended; it
 * holds no reference on the event loop. POSIX only: on Windows nothing is
 * started (see the client README). Best effort throughout: if no shell can be
 * started, servers are still ended by `close()` and the exit hook.
 */
export class ProcessReaper {
  readonly #groups: ReadonlyMap<number, number>;
  readonly #launchTurn: () => Promise<void>;
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();
  #starting = false;
  #unavailable = process.platform === "win32";

  /**
   * @param groups - the live groups and their kill grace (ms), kept by the caller.
   * @param launchTurn - waits for a launch's turn (server-process.ts): the reaper is a launch too.
   */
  constructor(groups: ReadonlyMap<number, number>, launchTurn: () => Promise<void>) {
    this.#groups = groups;
    this.#launchTurn = launchTurn;
  }

  /** Call after a group was added to the map. */
  watch(pgid: number, graceMs: number): void {
    if (this.#child) this.#send(watchLine(pgid, graceMs));
    else this.#start();
  }

  /**
   * Call after a group was removed from the map (it has ended). When it was
   * the last, the reaper is dismissed, and the promise resolves once it has
   * exited, so that nothing the client started outlives the last close.
   */
  forget(pgid: number): Promise<void> {
    const child = this.#child;
    if (!child) return Promise.resolve();
    this.#send(`-${pgid}\n`);
    if (this.#groups.size > 0) return Promise.resolve();
    // Nothing left to watch: with an empty list, the end of input makes it exit at once.
    child.stdin?.end();
    this.#child = undefined;
    return firstSettled([this.#exited], EXIT_WAIT_MS);
  }

  #start(): void {
    if (this.#starting || this.#unavailable) return;
    this.#starting = true;
    this.#launchTurn().then(() => {
      this.#starting = false;
      if (this.#child || this.#groups.size === 0) return;
      this.#spawn();
    }, noop);
  }

  #spawn(): void {
    let child: ChildProcess;
    try {
      // Loaded here, not imported: the start path loads this module through `/light`.
      const { spawn } = process.getBuiltinModule("node:child_process");
      child = spawn("/bin/sh", ["-c", SCRIPT, REAPER_NAME], {
        stdio: ["pipe", "ignore", "ignore"],
        // A session of its own: a terminal's Ctrl-C or hang-up, which may end the host, must not end it.
        detached: true,
      });
    } catch {
      this.#unavailable = true;
      return;
    }
    this.#child = child;
    this.#exited = once(child, "exit").then(noop, noop);
    child.once("error", () => {
      // No shell to run it: nothing to retry.
      this.#unavailable = true;
      if (this.#child === child) this.#child = undefined;
    });
    child.once("exit", () => {
      // Killed by someone else: the next launch starts a new one, told every live group.
      if (this.#child === child) this.#child = undefined;
    });
    child.stdin?.on("error", noop);
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    this.#send([...this.#groups].map(([pgid, graceMs]) => watchLine(pgid, graceMs)).join(""));
  }

  #send(lines: string): void {
    this.#child?.stdin?.write(lines);
  }
}

const noop = (): void => {};

/** The line that lists a group; the shell's arithmetic takes whole numbers only. */
function watchLine(pgid: number, graceMs: number): string {
  const grace = Number.isFinite(graceMs)
    ? Math.min(Math.max(Math.round(graceMs), 0), MAX_GRACE_MS)
    : MAX_GRACE_MS;
  return `+${pgid}:${grace}\n`;
}
