import { z } from "../util/zod.js";

/** A resource as a server lists it (`resources/list`), and as the cache keeps it. */
export interface MCPResourceDefinition {
  /** The resource's URI, what `resources/read` takes. */
  uri: string;
  /** The server's name for it. */
  name: string;
  /** A display name, when the server gives one. */
  title?: string | undefined;
  description?: string | undefined;
  mimeType?: string | undefined;
  /** Its size in bytes, when the server knows it. */
  size?: number | undefined;
}

/** A resource template as a server lists it (`resources/templates/list`): an RFC 6570 URI template. */
export interface MCPResourceTemplateDefinition {
  /** The URI template, e.g. `file:///{path}`. */
  uriTemplate: string;
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  mimeType?: string | undefined;
}

/** zod schema of {@link MCPResourceDefinition}; unknown fields are dropped. */
export const MCPResourceDefinitionSchema: z.ZodMiniType<MCPResourceDefinition> = z.object({
  uri: z.string().check(z.minLength(1)),
  name: z.string(),
  title: z.optional(z.string()),
  description: z.optional(z.string()),
  mimeType: z.optional(z.string()),
  size: z.optional(z.number().check(z.nonnegative())),
});

/** zod schema of {@link MCPResourceTemplateDefinition}; unknown fields are dropped. */
export const MCPResourceTemplateDefinitionSchema: z.ZodMiniType<MCPResourceTemplateDefinition> = z.object({
  uriTemplate: z.string().check(z.minLength(1)),
  name: z.string(),
  title: z.optional(z.string()),
  description: z.optional(z.string()),
  mimeType: z.optional(z.string()),
});
