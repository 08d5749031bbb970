import { z } from "../util/zod.js";

/** Where a server's config came from. */
export interface SourceMeta {
  /** Provider id, e.g. `claude-code`. */
  provider: string;
  /** Display name, e.g. `Claude Code`. */
  providerName: string;
  /** The file the entry was read from. */
  path: string;
  /** `project` for files that come with the repository. */
  level: "user" | "project";
}

/** zod schema of {@link SourceMeta}. */
export const SourceMetaSchema: z.ZodMiniType<SourceMeta> = z.object({
  provider: z.string(),
  providerName: z.string(),
  path: z.string(),
  level: z.enum(["user", "project"]),
});
