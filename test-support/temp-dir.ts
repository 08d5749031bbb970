import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";

/** How long one folder from {@link useTempDir} lives. */
export type TempDirLifetime = "test" | "file";

/**
 * A fresh folder under the OS temp folder for each test (or, with `per: "file"`,
 * one for the whole file or `describe`), removed after it. Call it where you
 * would call `beforeEach`; the returned function gives the current folder, so
 * a test never sees a folder another test left behind.
 *
 * @param prefix - start of the folder's name, so a leftover says which tests made it
 */
export function useTempDir(prefix: string, per: TempDirLifetime = "test"): () => string {
  let dir: string | undefined;
  const before = per === "test" ? beforeEach : beforeAll;
  const after = per === "test" ? afterEach : afterAll;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => {
    if (!dir) throw new Error(`useTempDir("${prefix}"): the folder exists only while a test runs`);
    return dir;
  };
}
