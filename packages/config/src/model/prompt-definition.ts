import { z } from "../util/zod.js";

/** One argument of a prompt. */
export interface MCPPromptArgument {
  name: string;
  description?: string | undefined;
  /** True when `prompts/get` needs it. */
  required?: boolean | undefined;
}

/** A prompt as a server lists it (`prompts/list`), and as the cache keeps it. */
export interface MCPPromptDefinition {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  arguments?: MCPPromptArgument[] | undefined;
}

/** zod schema of {@link MCPPromptDefinition}; unknown fields are dropped. */
export const MCPPromptDefinitionSchema: z.ZodMiniType<MCPPromptDefinition> = z.object({
  name: z.string().check(z.minLength(1)),
  title: z.optional(z.string()),
  description: z.optional(z.string()),
  arguments: z.optional(
    z.array(
      z.object({
        name: z.string().check(z.minLength(1)),
        description: z.optional(z.string()),
        required: z.optional(z.boolean()),
      }),
    ),
  ),
});
