import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A Node request as a web `Request` for the SDK's web-standard Streamable
 * HTTP transport: method, URL and headers; the body was read already
 * (`parsedBody` hands it over), so none is attached.
 */
export function toWebRequest(req: IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const method = req.method ?? "GET";
  // A body the transport never reads: only its presence (POST) matters to it.
  const body = method === "POST" ? "{}" : undefined;
  return new Request(url, { method, headers, ...(body === undefined ? {} : { body }) });
}

/**
 * Writes a web `Response` to a Node response as it streams (an event stream
 * stays open until either side ends it); resolves once it is written or the
 * client went away.
 */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, response.statusText, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on("close", () => {
    reader.cancel().catch(() => {});
  });
  // A GET opens the server's event stream: the client learns it is open before any event. A POST's
  // answer starts with its first event, so a server that dies first breaks the request itself.
  if (res.req.method === "GET") res.flushHeaders();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // The client went away (or the transport closed the stream): nothing left to write to.
  }
  res.end();
}

/** Reads a request's body as JSON; `{ ok: false }` when it is not JSON. */
export async function readJson(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
  } catch {
    return { ok: false };
  }
}
