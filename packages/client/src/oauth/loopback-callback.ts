import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Path of the callback on the loopback address. */
export const CALLBACK_PATH = "/callback";

/** Options of {@link startLoopbackCallback}. */
export interface LoopbackCallbackOptions {
  /** A port the user configured: taking it is a must, and failing is an error. */
  port?: number | undefined;
  /** A port worth trying first (the one a stored registration names); a free port when it is taken. */
  preferredPort?: number | undefined;
  /** The server's name, for the page the browser shows. */
  serverName: string;
}

/** Why a callback did not bring a code. */
export type CallbackFailure =
  | { kind: "port-taken"; port: number; message: string }
  | { kind: "denied"; error: string; description: string | undefined }
  | { kind: "timeout"; ms: number }
  | { kind: "aborted"; reason: unknown };

/** Thrown by {@link LoopbackCallback.waitForCode} and {@link startLoopbackCallback}. */
export class CallbackError extends Error {
  readonly failure: CallbackFailure;
  constructor(failure: CallbackFailure) {
    super(failure.kind);
    this.name = "CallbackError";
    this.failure = failure;
  }
}

/** A listening loopback callback. */
export interface LoopbackCallback {
  /** `http://127.0.0.1:<port>/callback`. */
  readonly redirectUrl: string;
  /** The `state` value the authorization request must carry, and the callback bring back. */
  readonly state: string;
  /**
   * Resolves once the browser comes back with a `code` and the right
   * `state`, with the callback's whole query (`code`, `state`, and `iss`
   * where the authorization server sends it, RFC 9207), as the SDK's
   * `finishAuth` takes it.
   */
  waitForCode(options: { timeoutMs: number; signal?: AbortSignal | undefined }): Promise<URLSearchParams>;
  /** Stops listening and drops open connections. Idempotent. */
  close(): Promise<void>;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function page(res: ServerResponse, status: number, title: string, body: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(
    `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
      `<body style="font-family:sans-serif;max-width:36em;margin:4em auto"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p>`,
  );
}

function listen(server: Server, port: number): Promise<number | "taken"> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      if (error.code === "EADDRINUSE" || error.code === "EACCES") resolve("taken");
      else reject(error);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, "127.0.0.1");
  });
}

/** Whether `given` is this flow's `state`, in constant time for any input (its digest, not its bytes, is compared). */
function sameState(given: string | null, state: string): boolean {
  if (given === null) return false;
  const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(given), digest(state));
}

/**
 * Listens on 127.0.0.1 for the browser's return from the authorization server
 * (RFC 8252's loopback redirect). A request whose `state` is not this flow's
 * is answered 400 and ignored, so a forged or stale link cannot finish or
 * break the sign-in; the matching one resolves with its `code` or rejects
 * with the authorization server's `error`.
 *
 * @throws CallbackError `port-taken` when the configured port is in use.
 */
export async function startLoopbackCallback(options: LoopbackCallbackOptions): Promise<LoopbackCallback> {
  const state = randomBytes(24).toString("base64url");
  let settle: ((outcome: { query: URLSearchParams } | { failure: CallbackFailure }) => void) | undefined;
  const outcome = new Promise<{ query: URLSearchParams } | { failure: CallbackFailure }>((resolve) => {
    settle = resolve;
  });
  const server = createServer((req, res) => {
    // Anyone on this machine (or a web page) can send the loopback a request: none may end the agent.
    try {
      answer(req.url, req.method, res);
    } catch {
      if (!res.headersSent)
        page(res, 400, "Bad request", "This address only takes the return from a sign-in.");
      else res.end();
    }
  });
  const answer = (requestUrl: string | undefined, method: string | undefined, res: ServerResponse): void => {
    const url = new URL(requestUrl ?? "/", "http://127.0.0.1");
    if (method !== "GET" || url.pathname !== CALLBACK_PATH) {
      page(res, 404, "Not found", "This address only takes the return from a sign-in.");
      return;
    }
    if (!sameState(url.searchParams.get("state"), state)) {
      page(
        res,
        400,
        "Sign-in link not recognised",
        "This link does not belong to the sign-in under way; start the sign-in again from the agent.",
      );
      return;
    }
    const error = url.searchParams.get("error");
    const code = url.searchParams.get("code");
    if (error !== null || !code) {
      page(
        res,
        400,
        "Sign-in not completed",
        `The sign-in to MCP server "${options.serverName}" did not complete (${error ?? "no code"}). You can close this tab.`,
      );
      settle?.({
        failure: {
          kind: "denied",
          error: error ?? "no_code",
          description: url.searchParams.get("error_description") ?? undefined,
        },
      });
      return;
    }
    page(
      res,
      200,
      "Signed in",
      `You are signed in to MCP server "${options.serverName}". You can close this tab and return to the agent.`,
    );
    settle?.({ query: url.searchParams });
  };

  let port: number | "taken";
  if (options.port !== undefined && options.port !== 0) {
    port = await listen(server, options.port);
    if (port === "taken") {
      throw new CallbackError({
        kind: "port-taken",
        port: options.port,
        message: `port ${options.port} on 127.0.0.1 is in use by another program`,
      });
    }
  } else {
    port = options.preferredPort ? await listen(server, options.preferredPort) : "taken";
    if (port === "taken") port = await listen(server, 0);
    if (port === "taken") throw new Error("no free port on 127.0.0.1 for the sign-in callback");
  }

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closed;
  };

  return {
    redirectUrl: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    state,
    close,
    async waitForCode({ timeoutMs, signal }) {
      const limit = AbortSignal.timeout(timeoutMs);
      const stop = signal ? AbortSignal.any([signal, limit]) : limit;
      let onAbort: (() => void) | undefined;
      const stopped = new Promise<{ failure: CallbackFailure }>((resolve) => {
        onAbort = () =>
          resolve({
            failure: signal?.aborted
              ? { kind: "aborted", reason: signal.reason }
              : { kind: "timeout", ms: timeoutMs },
          });
        if (stop.aborted) onAbort();
        else stop.addEventListener("abort", onAbort, { once: true });
      });
      try {
        const result = await Promise.race([outcome, stopped]);
        if ("failure" in result) throw new CallbackError(result.failure);
        return result.query;
      } finally {
        if (onAbort) stop.removeEventListener("abort", onAbort);
      }
    },
  };
}
