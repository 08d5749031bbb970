import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { type RedisServer, redisUnavailable, startRedisServer } from "@mcp-rt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { useQuickStart } from "../../../test-support/readme-quick-start.js";

const quickStart = useQuickStart({ readme: new URL("../README.md", import.meta.url) });
const missing = redisUnavailable();

describe("the README quick start", () => {
  it("misses, caches the tools in ~/.cache/mcp-rt, and reads them back on the next run", async () => {
    const { lines, home, run } = quickStart();
    expect(lines).toBeLessThanOrEqual(15);
    const first = await run();
    expect(first).toMatchObject({ exitCode: 0, stdout: "miss\n", stderr: "", leftBehind: false });
    expect(await readdir(join(home, ".cache", "mcp-rt"))).toHaveLength(1);
    const second = await run();
    expect(second).toMatchObject({ exitCode: 0, stdout: "[ 'echo' ]\n", stderr: "", leftBehind: false });
  });

  describe.skipIf(missing !== undefined && process.env.CI !== "true")(
    "with its Redis line swapped in",
    () => {
      let redis: RedisServer | undefined;
      afterEach(async () => {
        await redis?.stop();
        redis = undefined;
      });

      it("does the same through Redis, and close() lets the process exit", async () => {
        if (missing) throw new Error(missing);
        const { code, run } = quickStart();
        const fileLine = /^const cache = new MCPToolCache\(createFileStore\(\).*$/m;
        const redisLine =
          /^\/\/ (const cache = await createCacheFromUrl\("redis:\/\/cache\.internal:6379".*)$/m;
        expect(code).toMatch(fileLine);
        expect(code).toMatch(redisLine);
        redis = await startRedisServer();
        const swapped = code
          .replace(fileLine, code.match(redisLine)![1]!)
          .replace("redis://cache.internal:6379", redis.url);
        // Both runs must end by themselves: an open Redis client would keep them alive until the timeout.
        const first = await run({ code: swapped, timeoutMs: 20_000 });
        expect(first).toMatchObject({ exitCode: 0, stdout: "miss\n", stderr: "", leftBehind: false });
        const second = await run({ code: swapped, timeoutMs: 20_000 });
        expect(second).toMatchObject({ exitCode: 0, stdout: "[ 'echo' ]\n", stderr: "", leftBehind: false });
      });
    },
  );
});
