import { readFile } from "node:fs/promises";

/** Every name a package's `src/index.ts` exports, types included; `values` leaves the types out. */
export async function exportedNames(packageDir: URL, options: { values?: boolean } = {}): Promise<string[]> {
  const source = await readFile(new URL("src/index.ts", packageDir), "utf8");
  const statement = options.values
    ? /export\s+\{([^}]*)\}\s*from/g
    : /export\s+(?:type\s+)?\{([^}]*)\}\s*from/g;
  return [...source.matchAll(statement)].flatMap((match) =>
    match[1]!
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean),
  );
}

/**
 * The names a package README's "API" section lists: in each bullet, the names
 * in backticks before the first ": " (what follows is a description).
 * Undefined when the README has no such section.
 */
export async function documentedNames(packageDir: URL): Promise<string[] | undefined> {
  const readme = await readFile(new URL("README.md", packageDir), "utf8");
  const section = /\n## API\n([\s\S]*?)(?:\n## |$)/.exec(readme)?.[1];
  if (section === undefined) return undefined;
  const bullets = section.split(/^- /m).slice(1);
  return bullets.flatMap((bullet) => {
    const names = bullet.replace(/\n\s*/g, " ").split(": ")[0]!;
    return [...names.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((match) => match[1]!);
  });
}
