import { z } from "zod";

/** A resource as a server lists it (`resources/list`), and as the cache keeps it. */
export interface MCPResourceDefinition {
  /** The resource's URI, what `resources/read` takes. */
  uri: string;
  /** The server's name for it. */
  name: string;
  /** A display name, when the server gives one. */
  title?: string;
  description?: string;
  mimeType?: string;
  /** Its size in bytes, when the server knows it. */
  size?: number;
}

/** A resource template as a server lists it (`resources/templates/list`): an RFC 6570 URI template. */
export interface MCPResourceTemplateDefinition {
  /** The URI template, e.g. `file:///{path}`. */
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** One argument of a prompt. */
export interface MCPPromptArgument {
  name: string;
  description?: string;
  /** True when `prompts/get` needs it. */
  required?: boolean;
}

/** A prompt as a server lists it (`prompts/list`), and as the cache keeps it. */
export interface MCPPromptDefinition {
  name: string;
  title?: string;
  description?: string;
  arguments?: MCPPromptArgument[];
}

/** zod schema of {@link MCPResourceDefinition}; unknown fields are dropped. */
export const MCPResourceDefinitionSchema: z.ZodType<MCPResourceDefinition> = z.object({
  uri: z.string().min(1),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().nonnegative().optional(),
});

/** zod schema of {@link MCPResourceTemplateDefinition}; unknown fields are dropped. */
export const MCPResourceTemplateDefinitionSchema: z.ZodType<MCPResourceTemplateDefinition> = z.object({
  uriTemplate: z.string().min(1),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});

/** zod schema of {@link MCPPromptDefinition}; unknown fields are dropped. */
export const MCPPromptDefinitionSchema: z.ZodType<MCPPromptDefinition> = z.object({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z
    .array(
      z.object({
        name: z.string().min(1),
        description: z.string().optional(),
        required: z.boolean().optional(),
      }),
    )
    .optional(),
});
