import { mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { hashProjectServers } from "../src/project-trust.js";
import { createTrustStore } from "../src/trust-store.js";
import { useTempDir } from "./helpers.js";

const tempDir = useTempDir("mcp-rt-trust-");
let dir: string;
let project: string;
let file: string;

beforeEach(async () => {
  dir = tempDir();
  project = join(dir, "project");
  await mkdir(project);
  file = join(dir, "home", ".mcp-rt", "trust.json");
});

const lint = { command: "npx", args: ["lint-mcp"], env: { A: "1" } };
const servers = [
  { name: "lint", config: lint, source: { provider: "claude-code", level: "project" as const } },
];

describe("createTrustStore", () => {
  it("approves a project, asks again when its servers change, and revokes", async () => {
    const trust = createTrustStore(file);
    const hash = hashProjectServers(servers);
    expect(await trust.isApproved(project, hash)).toBe(false);

    await trust.approve(project, hash);
    expect(await trust.isApproved(project, hash)).toBe(true);
    // A second store on the same file (another process) sees the approval.
    expect(await createTrustStore(file).isApproved(project, hash)).toBe(true);

    const changed = hashProjectServers([{ ...servers[0]!, config: { ...lint, args: ["evil"] } }]);
    expect(await trust.isApproved(project, changed)).toBe(false);
    expect(await trust.isApproved(join(dir, "other"), hash)).toBe(false);

    await trust.revoke(project);
    expect(await trust.isApproved(project, hash)).toBe(false);
  });

  it("writes the file 0600 in a 0700 folder, atomically (no temp files left)", async () => {
    const trust = createTrustStore(file);
    await trust.approve(project, "h1");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, "home", ".mcp-rt"))).mode & 0o777).toBe(0o700);
    expect(await readdir(join(dir, "home", ".mcp-rt"))).toEqual(["trust.json"]);
    const json = JSON.parse(await readFile(file, "utf8"));
    expect(Object.values(json.projects)).toEqual([{ hash: "h1", approvedAt: expect.any(String) }]);
  });

  it("keys approvals by the project's real path", async () => {
    const link = join(dir, "link");
    await symlink(project, link);
    const trust = createTrustStore(file);
    await trust.approve(link, "h1");
    expect(await trust.isApproved(project, "h1")).toBe(true);
    await trust.revoke(project);
    expect(await trust.isApproved(link, "h1")).toBe(false);
  });

  it("keeps every approval made at once", async () => {
    const trust = createTrustStore(file);
    const projects = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const p = join(dir, `p${i}`);
        await mkdir(p);
        return p;
      }),
    );
    await Promise.all(projects.map((p, i) => trust.approve(p, `h${i}`)));
    for (const [i, p] of projects.entries()) expect(await trust.isApproved(p, `h${i}`)).toBe(true);
  });

  it.each([
    ["not JSON", "{ nope"],
    ["the wrong shape", JSON.stringify([1, 2, 3])],
    ["a wrong projects field", JSON.stringify({ projects: "x" })],
  ])("treats a file holding %s as nothing approved and rewrites it on approve", async (_, text) => {
    await mkdir(join(dir, "home", ".mcp-rt"), { recursive: true });
    await writeFile(file, text);
    const trust = createTrustStore(file);
    expect(await trust.isApproved(project, "h1")).toBe(false);
    await trust.revoke(project);
    await trust.approve(project, "h1");
    expect(await trust.isApproved(project, "h1")).toBe(true);
    expect(JSON.parse(await readFile(file, "utf8")).version).toBe(1);
  });

  it("keeps the good entries of a partly damaged file", async () => {
    const trust = createTrustStore(file);
    await trust.approve(project, "h1");
    const json = JSON.parse(await readFile(file, "utf8"));
    json.projects["/somewhere/else"] = { hash: 42 };
    await writeFile(file, JSON.stringify(json));
    expect(await trust.isApproved(project, "h1")).toBe(true);
  });

  it("uses ~/.mcp-rt/trust.json by default", async () => {
    const home = process.env.HOME;
    process.env.HOME = join(dir, "home");
    try {
      await createTrustStore().approve(project, "h1");
      expect(await createTrustStore(file).isApproved(project, "h1")).toBe(true);
    } finally {
      process.env.HOME = home;
    }
  });
});
