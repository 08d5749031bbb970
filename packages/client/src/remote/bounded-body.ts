import { tooLargeResponse, tooLargeText } from "../message-limit.js";

/** Options of {@link boundResponse}. */
export interface BoundResponseOptions {
  /** `maxMessageBytes`: the most a JSON body, or one event of an event stream, may hold. */
  limit: number;
  /** The JSON-RPC requests the response answers: what fails when it is too large. */
  requestIds: ReadonlyArray<string | number>;
}

const LF = 0x0a;
const CR = 0x0d;
const encoder = new TextEncoder();

/** The ids of the JSON-RPC requests in a POST body (the SDK sends one message, or a batch, as JSON text). */
export function requestIdsOf(body: unknown): Array<string | number> {
  if (typeof body !== "string") return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const ids: Array<string | number> = [];
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const { id, method } = (message ?? {}) as { id?: unknown; method?: unknown };
    if (typeof method === "string" && (typeof id === "string" || typeof id === "number")) ids.push(id);
  }
  return ids;
}

/**
 * The response with a body that never holds more than `limit` bytes at once:
 * a JSON body is passed on whole once it ended within the limit; an event
 * stream is passed on event by event, each within the limit. A body or event
 * past the limit is not read further: in its place come JSON-RPC errors for
 * `requestIds` (they fail with `LIMIT_EXCEEDED`), or, with none to fail, the
 * body errors. So a 100 MB answer costs at most `limit` bytes of memory.
 */
export function boundResponse(response: Response, options: BoundResponseOptions): Response {
  const body = response.body;
  if (!body) return response;
  const type = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  const reader = body.getReader();
  const bounded = type === "text/event-stream" ? boundEvents(reader, options) : boundWhole(reader, options);
  return new Response(bounded, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

type Reader = ReadableStreamDefaultReader<Uint8Array>;

/** Ends the stream in place of what was too large: errors for the requests, or an error of the body. */
function tooLarge(
  controller: ReadableStreamDefaultController<Uint8Array>,
  reader: Reader,
  options: BoundResponseOptions,
  events: boolean,
): void {
  reader.cancel().catch(() => {});
  const { limit, requestIds } = options;
  if (requestIds.length === 0) {
    controller.error(new Error(`The server sent ${tooLargeText(limit)}; it was not read`));
    return;
  }
  const errors = requestIds.map((id) => JSON.stringify(tooLargeResponse(id, limit)));
  const text = events
    ? errors.map((error) => `event: message\ndata: ${error}\n\n`).join("")
    : errors.length === 1
      ? errors[0]!
      : `[${errors.join(",")}]`;
  controller.enqueue(encoder.encode(text));
  controller.close();
}

/** The body ended within the limit: what was held goes on, and the stream ends. */
function finish(controller: ReadableStreamDefaultController<Uint8Array>, held: Uint8Array[]): void {
  for (const chunk of held.splice(0)) controller.enqueue(chunk);
  controller.close();
}

function boundWhole(reader: Reader, options: BoundResponseOptions): ReadableStream<Uint8Array> {
  const held: Uint8Array[] = [];
  let size = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return finish(controller, held);
        size += value.byteLength;
        if (size > options.limit) {
          held.length = 0;
          tooLarge(controller, reader, options, false);
          return;
        }
        held.push(value);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/**
 * Passes an event stream on one whole event at a time (an event ends at an
 * empty line: LF, CR or CRLF line ends), holding at most `limit` bytes.
 */
function boundEvents(reader: Reader, options: BoundResponseOptions): ReadableStream<Uint8Array> {
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let lineLength = 0;
  let afterCR = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return finish(controller, held);
        let start = 0;
        let sent = false;
        for (let i = 0; i < value.length; i++) {
          const byte = value[i];
          if (byte === LF && afterCR) {
            afterCR = false;
            continue;
          }
          if (byte !== LF && byte !== CR) {
            afterCR = false;
            lineLength++;
            continue;
          }
          afterCR = byte === CR;
          const emptyLine = lineLength === 0;
          lineLength = 0;
          if (!emptyLine) continue;
          // An event ends here: it goes on whole, if it is within the limit.
          if (heldBytes + (i + 1 - start) > options.limit) {
            tooLarge(controller, reader, options, true);
            return;
          }
          for (const chunk of held) controller.enqueue(chunk);
          controller.enqueue(value.subarray(start, i + 1));
          held = [];
          heldBytes = 0;
          start = i + 1;
          sent = true;
        }
        const rest = value.subarray(start);
        heldBytes += rest.byteLength;
        if (heldBytes > options.limit) {
          held = [];
          tooLarge(controller, reader, options, true);
          return;
        }
        if (rest.byteLength > 0) held.push(rest);
        if (sent) return;
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
