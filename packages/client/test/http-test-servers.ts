import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll } from "vitest";
import { everythingEntry } from "./helpers.js";

/** Every port a test file's servers listened on; checked free after the file. */
const portsUsed = new Set<number>();

/** A port nothing listens on right now (on 127.0.0.1). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}

/** Makes the current test file fail if any port one of its servers used is still taken after its last test. */
export function checkNoPortsLeftAfterFile(): void {
  afterAll(async () => {
    const taken: number[] = [];
    for (const port of portsUsed) {
      const probe = createServer();
      const result = await new Promise<"free" | "taken">((resolve) => {
        probe.once("error", () => resolve("taken"));
        probe.listen(port, "127.0.0.1", () => resolve("free"));
      });
      if (result === "free") {
        probe.close();
        await once(probe, "close");
      } else {
        taken.push(port);
      }
    }
    portsUsed.clear();
    if (taken.length > 0) throw new Error(`This test file left port(s) ${taken.join(", ")} in use`);
  });
}

/** A running `@modelcontextprotocol/server-everything` over HTTP. */
export interface EverythingServer {
  /** The endpoint: `http://127.0.0.1:<port>/mcp` (streamableHttp) or `/sse` (sse). */
  url: string;
  port: number;
  /** Everything it printed (stdout and stderr). */
  log(): string;
  /** Resolves once its output matches `pattern` (rejects after `ms`). */
  waitForLog(pattern: RegExp, ms?: number): Promise<void>;
  /** Stops it (SIGTERM, SIGKILL after 2 s); resolves once it has exited. */
  close(): Promise<void>;
}

/** Starts server-everything in `streamableHttp` or `sse` mode on a free port. */
export async function startEverything(mode: "streamableHttp" | "sse"): Promise<EverythingServer> {
  const port = await freePort();
  portsUsed.add(port);
  const child: ChildProcess = spawn(process.execPath, [everythingEntry, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const waiters = new Set<() => void>();
  const append = (chunk: string): void => {
    output += chunk;
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout?.setEncoding("utf8").on("data", append);
  child.stderr?.setEncoding("utf8").on("data", append);
  const exited = once(child, "exit").then(() => undefined);

  const waitForLog = (pattern: RegExp, ms = 10_000): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (!pattern.test(output)) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`server-everything did not print ${pattern} within ${ms} ms; output:\n${output}`));
      }, ms);
      const cleanup = (): void => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
      await exited;
      clearTimeout(timer);
    }
  };

  try {
    await Promise.race([
      waitForLog(/listening on port|running on port/i),
      exited.then(() => {
        throw new Error(`server-everything exited before listening; output:\n${output}`);
      }),
    ]);
  } catch (error) {
    await close();
    throw error;
  }
  const path = mode === "sse" ? "/sse" : "/mcp";
  return { url: `http://127.0.0.1:${port}${path}`, port, log: () => output, waitForLog, close };
}

/** One request a test server saw. */
export interface RecordedRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: IncomingHttpHeaders;
}

/** A node:http server of a test, on 127.0.0.1 and a free port. */
export interface TestHttpServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Every request it received, in order. */
  requests: RecordedRequest[];
  /** Stops it, cutting open connections (event streams included). */
  close(): Promise<void>;
}

/** What a handler may answer instead of the default. */
export type TestHandler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** Starts a node:http server that records each request, reads its body, then calls `handler`. */
export async function startHttpServer(handler: TestHandler): Promise<TestHttpServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    handler(req, res, Buffer.concat(chunks).toString("utf8"));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  portsUsed.add(port);
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      if (!server.listening) return;
      const closed = once(server, "close");
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Options of {@link startProxy}. */
export interface ProxyOptions {
  /** Answers a request itself instead of forwarding it when this returns true (after writing `res`). */
  intercept?(req: IncomingMessage, res: ServerResponse, body: string): boolean;
}

/**
 * A recording reverse proxy to `target` (an origin): each request is recorded,
 * then forwarded with its method, path, headers and body, and the answer
 * (event streams included) is piped back as it comes.
 */
export function startProxy(target: string, options: ProxyOptions = {}): Promise<TestHttpServer> {
  const upstream = new URL(target);
  return startHttpServer((req, res, body) => {
    if (options.intercept?.(req, res, body)) return;
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on("close", () => forwarded.destroy());
    forwarded.end(body);
  });
}

/** Starters for one test file's HTTP servers and proxies; whatever they start is stopped after each test. */
export interface TestServers {
  /** {@link startHttpServer}, stopped after the test. */
  server(handler: TestHandler): Promise<TestHttpServer>;
  /** {@link startProxy}, stopped after the test. */
  proxy(target: string, options?: ProxyOptions): Promise<TestHttpServer>;
}

/** Registers an `afterEach` that stops every server the returned starters started. */
export function useTestServers(): TestServers {
  const started: TestHttpServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((server) => server.close()));
  });
  const track = (server: TestHttpServer): TestHttpServer => {
    started.push(server);
    return server;
  };
  return {
    server: async (handler) => track(await startHttpServer(handler)),
    proxy: async (target, options) => track(await startProxy(target, options)),
  };
}

/** server-everything in both HTTP modes, shared by one test file's tests. */
export interface EverythingServers {
  /** The `streamableHttp` one. */
  readonly http: EverythingServer;
  /** The `sse` one. */
  readonly sse: EverythingServer;
}

/** Starts server-everything in both modes before a file's first test and stops them after its last. */
export function useEverythingServers(): EverythingServers {
  let http: EverythingServer | undefined;
  let sse: EverythingServer | undefined;
  beforeAll(async () => {
    [http, sse] = await Promise.all([startEverything("streamableHttp"), startEverything("sse")]);
  });
  afterAll(async () => {
    await Promise.all([http?.close(), sse?.close()]);
  });
  const started = (server: EverythingServer | undefined): EverythingServer => {
    if (!server) throw new Error("server-everything is not running: use it inside a test");
    return server;
  };
  return {
    get http() {
      return started(http);
    },
    get sse() {
      return started(sse);
    },
  };
}
