import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  type CallToolResult,
  createMcpHandler,
  isInitializeRequest,
  type McpHttpHandler,
  McpServer,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import express, { type NextFunction, type Request, type Response } from "express";
import type { Provider } from "oidc-provider";
import { sendWebResponse, toWebRequest } from "./node-http-bridge.js";

/** What the resource server counts, for assertions. */
export interface ResourceServerCounts {
  /** Requests answered 401 (no token, or an unknown, revoked or expired one). */
  unauthorized: number;
  /** Requests answered 403 `insufficient_scope`. */
  insufficientScope: number;
  /** Requests that got through with a valid token. */
  authorized: number;
  /** `server/discover` requests that got through (2026-07-28: each connect without a stored discover result). */
  discovers: number;
  /** `tools/list` requests that got through. */
  toolLists: number;
}

/** Options of {@link startResourceServer}. */
export interface ResourceServerOptions {
  /**
   * The authorization server, read at request time (it is started after this
   * server, which must know its own URL first): its issuer is named in the
   * metadata, and access tokens are looked up in its storage.
   */
  authorizationServer: () => { issuer: string; provider: Provider };
  /** Endpoint paths, each an MCP server. */
  endpoints: string[];
  /** What each endpoint's metadata names as its resource: its own URL, or the origin for all. */
  resource: "endpoint" | "origin";
  /** Scope every request needs. */
  scope: string;
  /** Scope the `admin_action` tool needs besides `scope`. */
  stepUpScope: string;
  /** The era the endpoints speak: stateful 2025 sessions, or 2026-07-28 only (`createMcpHandler`). @default "legacy" */
  era?: "legacy" | "modern";
}

/** A running resource server. */
export interface ResourceServer {
  readonly origin: string;
  /** Every endpoint's URL. */
  readonly urls: string[];
  /** The resource indicator of each endpoint, by URL. */
  readonly resources: ReadonlyMap<string, string>;
  readonly counts: ResourceServerCounts;
  close(): Promise<void>;
}

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });

/**
 * An MCP server built with the SDK behind its `verifyBearerToken`: each endpoint
 * publishes its protected resource metadata (RFC 9728) and answers requests
 * without a valid token 401 with a `WWW-Authenticate` challenge naming it.
 * Tools: `whoami` (who signed in, with which scopes) and `admin_action`, which
 * needs `stepUpScope` and answers 403 `insufficient_scope` without it.
 * Listens on 127.0.0.1 at the given `port` (0: a free one).
 */
export async function startResourceServer(options: ResourceServerOptions, port = 0): Promise<ResourceServer> {
  const counts: ResourceServerCounts = {
    unauthorized: 0,
    insufficientScope: 0,
    authorized: 0,
    discovers: 0,
    toolLists: 0,
  };
  const handlers: McpHttpHandler[] = [];
  const app = express();
  const http: Server = createServer(app);
  http.listen(port, "127.0.0.1");
  await once(http, "listening");
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const urls = options.endpoints.map((path) => `${origin}${path}`);
  const resources = new Map(urls.map((url) => [url, options.resource === "origin" ? `${origin}/` : url]));
  const transports = new Set<WebStandardStreamableHTTPServerTransport>();

  app.use((_req, res, next) => {
    res.on("finish", () => {
      if (res.statusCode === 401) counts.unauthorized++;
      else if (res.statusCode === 403) counts.insufficientScope++;
    });
    next();
  });

  for (const [index, path] of options.endpoints.entries()) {
    const url = urls[index]!;
    const resource = resources.get(url)!;
    const metadataPath = `/.well-known/oauth-protected-resource${path}`;
    const metadataUrl = `${origin}${metadataPath}`;
    app.get(metadataPath, (_req, res) => {
      res.json({
        resource,
        authorization_servers: [options.authorizationServer().issuer],
        scopes_supported: [options.scope, options.stepUpScope],
        bearer_methods_supported: ["header"],
      });
    });
    const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
    // 2026-07-28: each request meets a server made for who signed in.
    const modern =
      options.era === "modern"
        ? createMcpHandler((ctx) => createMcpServer(path, String(ctx.authInfo?.extra?.subject)), {
            legacy: "reject",
          })
        : undefined;
    if (modern) handlers.push(modern);
    const bearer = {
      verifier: {
        verifyAccessToken: (token: string) => verify(options.authorizationServer().provider, token),
      },
      requiredScopes: [options.scope],
      resourceMetadataUrl: metadataUrl,
      expectedResource: new URL(resource),
    };
    const serve = async (
      transport: WebStandardStreamableHTTPServerTransport,
      req: Request,
      res: Response,
    ): Promise<void> => {
      const response = await transport.handleRequest(toWebRequest(req, new URL(req.originalUrl, origin)), {
        parsedBody: req.body,
        authInfo: res.locals.auth as AuthInfo,
      });
      await sendWebResponse(res, response);
    };
    app.all(
      path,
      express.json(),
      async (req: Request, res: Response, next: NextFunction) => {
        try {
          res.locals.auth = await verifyBearerToken(req.headers.authorization, bearer);
        } catch (error) {
          await sendWebResponse(res, bearerAuthChallengeResponse(error, bearer));
          return;
        }
        next();
      },
      (req: Request, res: Response, next: NextFunction) => {
        const scopes = (res.locals.auth as AuthInfo).scopes;
        const body = req.body as { method?: unknown; params?: { name?: unknown } } | undefined;
        if (
          body?.method === "tools/call" &&
          body.params?.name === "admin_action" &&
          !scopes.includes(options.stepUpScope)
        ) {
          const wanted = `${options.scope} ${options.stepUpScope}`;
          res
            .status(403)
            .set(
              "WWW-Authenticate",
              `Bearer error="insufficient_scope", scope="${wanted}", resource_metadata="${metadataUrl}", error_description="admin_action needs ${options.stepUpScope}"`,
            )
            .json({
              error: "insufficient_scope",
              error_description: `admin_action needs ${options.stepUpScope}`,
            });
          return;
        }
        counts.authorized++;
        if (body?.method === "server/discover") counts.discovers++;
        if (body?.method === "tools/list") counts.toolLists++;
        next();
      },
      async (req: Request, res: Response) => {
        if (modern) {
          const response = await modern.fetch(toWebRequest(req, new URL(req.originalUrl, origin)), {
            parsedBody: req.body,
            authInfo: res.locals.auth as AuthInfo,
          });
          return sendWebResponse(res, response);
        }
        const sessionId = req.headers["mcp-session-id"];
        const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
        if (existing) return serve(existing, req, res);
        if (req.method !== "POST" || !isInitializeRequest(req.body)) {
          res.status(typeof sessionId === "string" ? 404 : 400).json({
            jsonrpc: "2.0",
            error: { code: -32000, message: "no such session; send initialize first" },
            id: null,
          });
          return;
        }
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void sessions.set(id, transport),
        });
        transports.add(transport);
        transport.onclose = () => {
          transports.delete(transport);
          if (transport.sessionId) sessions.delete(transport.sessionId);
        };
        await createMcpServer(path, undefined).connect(transport);
        await serve(transport, req, res);
      },
    );
  }

  return {
    origin,
    urls,
    resources,
    counts,
    close: async () => {
      await Promise.all([...transports].map((transport) => transport.close().catch(() => undefined)));
      await Promise.all(handlers.map((handler) => handler.close().catch(() => undefined)));
      http.closeAllConnections();
      http.close();
      await once(http, "close");
    },
  };
}

/** Looks a token up in the authorization server's storage, as token introspection would. */
async function verify(provider: Provider, token: string): Promise<AuthInfo> {
  const found = await provider.AccessToken.find(token);
  if (!found || found.isExpired)
    throw new OAuthError(OAuthErrorCode.InvalidToken, "The access token is unknown, revoked or expired");
  const audience = Array.isArray(found.aud) ? found.aud[0] : found.aud;
  return {
    token,
    clientId: found.clientId ?? "",
    scopes: (found.scope ?? "").split(" ").filter(Boolean),
    ...(typeof found.exp === "number" ? { expiresAt: found.exp } : {}),
    ...(typeof audience === "string" ? { resource: new URL(audience) } : {}),
    extra: { subject: found.accountId },
  };
}

/** The endpoint's server; a 2026-07-28 one has a tool of the signed-in `subject`'s own besides. */
function createMcpServer(path: string, subject: string | undefined): McpServer {
  const mcp = new McpServer({ name: `mcp-rt-oauth-fixture${path}`, version: "1.0.0" });
  if (subject !== undefined) {
    mcp.registerTool(`notes_${subject}`, { description: `The notes of ${subject} alone.` }, () =>
      text(`notes of ${subject}`),
    );
  }
  mcp.registerTool("whoami", { description: "Who signed in, with which scopes." }, (ctx) => {
    const authInfo = ctx.http?.authInfo;
    return text(`subject=${String(authInfo?.extra?.subject)} scopes=${authInfo?.scopes.join(" ") ?? ""}`);
  });
  mcp.registerTool("admin_action", { description: "Needs the step-up scope." }, () =>
    text("admin action done"),
  );
  return mcp;
}
