import { EventEmitter } from "node:events";
import type { Logger, MCPToolDefinition } from "@mcp-rt/config";
import type { KeyvStoreAdapter } from "keyv";

/** A raw store, as a contract case gets it from `makeStore`. */
export type RawStore = KeyvStoreAdapter | Map<string, unknown>;

/** Reads what the store holds under a key, bypassing the cache. */
export async function rawGet(store: RawStore, key: string): Promise<unknown> {
  return store instanceof Map ? store.get(key) : store.get(key);
}

/** Writes a value under a key, bypassing the cache. */
export async function rawSet(store: RawStore, key: string, value: unknown): Promise<void> {
  if (store instanceof Map) store.set(key, value);
  else await store.set(key, value);
}

/** How a {@link ProbeStore} behaves right now. */
export type ProbeMode = "pass" | "fail" | "slow";

/** A store that forwards to a real one, records writes, and can fail or stall on demand. */
export interface ProbeStore extends KeyvStoreAdapter {
  /** `pass` forwards, `fail` throws at once, `slow` forwards after `delayMs`. @default "pass" */
  mode: ProbeMode;
  /** How long a `slow` call stalls, in ms. */
  delayMs: number;
  /** Every `set` that reached the real store. */
  readonly writes: Array<{ key: string; value: unknown }>;
  /** How many stalled calls have finished so far. */
  readonly stalledDone: number;
  /** Resolves when every stalled call has finished. */
  settled(): Promise<void>;
}

/** Wraps a raw store in a {@link ProbeStore}. */
export function probeStore(inner: RawStore): ProbeStore {
  const stalled = new Set<Promise<unknown>>();
  const probe = Object.assign(new EventEmitter(), {
    mode: "pass" as ProbeMode,
    delayMs: 1000,
    namespace: undefined as string | undefined,
    opts: { dialect: "probe", url: "probe:" },
    writes: [] as Array<{ key: string; value: unknown }>,
    stalledDone: 0,
    async settled(): Promise<void> {
      await Promise.allSettled([...stalled]);
    },
    get: <V>(key: string) => run(async () => (await rawGet(inner, key)) as V | undefined),
    set: (key: string, value: unknown, ttl?: number) =>
      run(async () => {
        probe.writes.push({ key, value });
        if (inner instanceof Map) inner.set(key, value);
        else await inner.set(key, value, ttl);
        return true;
      }),
    delete: (key: string) => run(async () => (inner instanceof Map ? inner.delete(key) : inner.delete(key))),
    clear: () => run(async () => inner.clear()),
  });

  async function run<T>(operation: () => Promise<T>): Promise<T> {
    if (probe.mode === "fail") throw new Error("probe store: injected failure (ECONNREFUSED)");
    if (probe.mode === "pass") return operation();
    const call = new Promise((done) => setTimeout(done, probe.delayMs)).then(operation);
    stalled.add(call);
    call
      .finally(() => {
        stalled.delete(call);
        probe.stalledDone++;
      })
      .catch(() => {});
    return call;
  }

  return probe;
}

/** A {@link Logger} that keeps what it was told. */
export interface RecordingLogger extends Logger {
  /** Everything logged, in order. */
  readonly lines: Array<{ level: "debug" | "info" | "warn" | "error"; message: string }>;
  /** How many lines were logged at `level`. */
  count(level: "debug" | "info" | "warn" | "error"): number;
}

/** Makes a {@link RecordingLogger}. */
export function recordingLogger(): RecordingLogger {
  const lines: RecordingLogger["lines"] = [];
  const at =
    (level: "debug" | "info" | "warn" | "error") =>
    (message: string): void => {
      lines.push({ level, message });
    };
  return {
    lines,
    count: (level) => lines.filter((line) => line.level === level).length,
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
  };
}

/** `count` plausible tool definitions, tagged so that two sets never compare equal. */
export function sampleTools(count: number, tag = "t"): MCPToolDefinition[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `${tag}_tool_${i}`,
    title: `Tool ${i} (${tag})`,
    description: `Does thing number ${i} for the ${tag} set; a description long enough to be realistic.`,
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", description: "A file path" },
        limit: { type: "integer", minimum: 1, maximum: 1000 },
        flags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] } },
      },
      required: ["path"],
      additionalProperties: false,
    },
    ...(i % 3 === 0 ? { annotations: { readOnlyHint: true, title: `Tool ${i}` } } : {}),
  }));
}
