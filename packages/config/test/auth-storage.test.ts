import { spawn, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { authStorageContractTests } from "../src/contract.js";
import { createFileAuthStorage } from "../src/file-auth-storage.js";
import { withFileLock } from "../src/file-lock.js";
import { createMemoryAuthStorage } from "../src/memory-auth-storage.js";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcp-rt-auth-"));
  file = join(dir, "home", ".mcp-rt", "auth.json");
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("createMemoryAuthStorage", () => {
  const shared = createMemoryAuthStorage();
  authStorageContractTests(it, () => shared);

  it("starts with the entries it is given, and a new one shares nothing", async () => {
    const storage = createMemoryAuthStorage({ github: "sk-1" });
    expect(await storage.get("github")).toBe("sk-1");
    expect(await createMemoryAuthStorage().get("github")).toBeUndefined();
  });
});

describe("createFileAuthStorage", () => {
  authStorageContractTests(it, () => createFileAuthStorage(file));

  it("writes a 0600 file in a 0700 folder, and leaves no temp or lock file", async () => {
    await createFileAuthStorage(file).set("github", "sk-secret");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(file))).mode & 0o777).toBe(0o700);
    expect(await readdir(dirname(file))).toEqual(["auth.json"]);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({
      version: 1,
      entries: { github: "sk-secret" },
    });
  });

  it("a new handle on the same file (a restart) reads what the first one wrote", async () => {
    await createFileAuthStorage(file).set("linear", "lin_api_1");
    expect(await createFileAuthStorage(file).get("linear")).toBe("lin_api_1");
  });

  it("reads a missing or corrupt file as empty, and moves a corrupt one aside instead of losing it", async () => {
    expect(await createFileAuthStorage(file).get("x")).toBeUndefined();
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, "{ not json");
    const storage = createFileAuthStorage(file);
    expect(await storage.get("x")).toBeUndefined();
    await storage.set("x", "1");
    expect(await storage.get("x")).toBe("1");
    expect(await readFile(`${file}.corrupt`, "utf8")).toBe("{ not json");
  });

  it("ignores entries that are not strings", async () => {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ version: 1, entries: { good: "v", bad: 42 } }));
    const storage = createFileAuthStorage(file);
    expect(await storage.get("good")).toBe("v");
    expect(await storage.get("bad")).toBeUndefined();
  });

  it("rejects a value that is not a string", async () => {
    await expect(createFileAuthStorage(file).set("k", 42 as unknown as string)).rejects.toThrow(TypeError);
  });
});

describe("two processes writing one auth file", () => {
  beforeAll(() => {
    const build = spawnSync("pnpm", ["--filter", "@mcp-rt/config", "build"], {
      cwd: packageDir,
      encoding: "utf8",
    });
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  }, 120_000);

  function writer(name: string, count: number): Promise<{ code: number | null; stderr: string }> {
    const entry = pathToFileURL(join(packageDir, "dist", "index.js")).href;
    const script = `
      import { createFileAuthStorage } from ${JSON.stringify(entry)};
      const storage = createFileAuthStorage(${JSON.stringify(file)});
      for (let i = 0; i < ${count}; i++) {
        await Promise.all([storage.set("${name}-" + i, "v" + i), storage.set("${name}-shared", String(i))]);
      }
      await storage.delete("${name}-0");`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
  }

  it("loses none of either process's writes", async () => {
    const results = await Promise.all([writer("a", 40), writer("b", 40)]);
    for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });
    const storage = createFileAuthStorage(file);
    for (const name of ["a", "b"]) {
      expect(await storage.get(`${name}-0`)).toBeUndefined();
      for (let i = 1; i < 40; i++) expect(await storage.get(`${name}-${i}`)).toBe(`v${i}`);
      expect(await storage.get(`${name}-shared`)).toBe("39");
    }
    expect((await readdir(dirname(file))).sort()).toEqual(["auth.json"]);
  }, 60_000);
});

describe("withFileLock", () => {
  it("takes over a lock whose holder is gone", async () => {
    const lock = join(dir, "f.lock");
    await writeFile(lock, "999999999\n");
    await expect(withFileLock(lock, async () => "ran", { timeoutMs: 2000 })).resolves.toBe("ran");
    await expect(stat(lock)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("waits for a live holder, and says who holds it when it gives up", async () => {
    const lock = join(dir, "f.lock");
    let release: () => void = () => {};
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    const held = withFileLock(lock, () => {
      started();
      return new Promise<void>((resolve) => (release = resolve));
    });
    await running;
    await expect(withFileLock(lock, async () => "late", { timeoutMs: 200 })).rejects.toThrow(
      new RegExp(`locked by process ${process.pid}`),
    );
    const waiting = withFileLock(lock, async () => "after", { timeoutMs: 5000 });
    release();
    await held;
    await expect(waiting).resolves.toBe("after");
  });
});
