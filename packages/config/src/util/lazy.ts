/**
 * A value built on its first use and kept: for module-level values, zod
 * schemas above all, that a module's importers may never need: a start builds
 * only the schemas it uses (bench/README.md, "The agent's start path").
 *
 * @example
 * ```ts
 * const fileSchema = lazy(() => z.object({ entries: z.record(z.string(), z.unknown()) }));
 * fileSchema().safeParse(json);
 * ```
 */
export function lazy<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
