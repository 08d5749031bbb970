import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const packages = ["config", "client", "cache", "manager", "session", "testing"];
const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

// Tests import sibling packages from source, so a change in one package is seen
// by the others without a rebuild. Executables (fixture servers, bins) still run
// from dist, which `npm test` builds first.
const alias = packages.flatMap((name) => [
  { find: new RegExp(`^@mcp-rt/${name}$`), replacement: here(`packages/${name}/src/index.ts`) },
  { find: new RegExp(`^@mcp-rt/${name}/(.+)$`), replacement: here(`packages/${name}/src/$1.ts`) },
]);

export default defineConfig({
  resolve: { alias },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // What a test polls for (a re-list, a reconnect) can take seconds on a loaded CI machine.
    expect: { poll: { timeout: 5_000 } },
    projects: [
      ...packages.map((name) => ({
        extends: true as const,
        test: { name, root: here(`packages/${name}`), include: ["test/**/*.test.ts"] },
      })),
      {
        extends: true as const,
        test: { name: "agent", root: here("apps/agent"), include: ["test/**/*.test.ts"] },
      },
      {
        extends: true as const,
        test: { name: "bench", root: here("bench"), include: ["test/**/*.test.ts"] },
      },
      {
        extends: true as const,
        test: { name: "docs", root: here("docs"), include: ["test/**/*.test.ts"] },
      },
    ],
  },
});
