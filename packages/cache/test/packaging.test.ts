import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { assertBuilt } from "./cache-cli.js";

describe("the published package", () => {
  it("works without the optional @keyv/redis, and says to install it for redis:// URLs", () => {
    assertBuilt();
    const script = fileURLToPath(new URL("./fixtures/without-redis.mjs", import.meta.url));
    const run = spawnSync(process.execPath, [script], { encoding: "utf8", timeout: 20_000 });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({
      hit: true,
      code: "CACHE_ERROR",
      message: expect.stringContaining("npm install @keyv/redis"),
    });
  });
});
