import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/client";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";

type Check = (value: unknown) => { valid: boolean; errorMessage?: string | undefined };

let validator: AjvJsonSchemaValidator | undefined;
const compiled = new WeakMap<object, Check | string>();

/**
 * Checks `value` against a JSON Schema from a server (a tool's
 * `outputSchema`, an elicitation's `requestedSchema`). Returns `undefined`
 * when it matches, else what is wrong (also when the schema itself cannot
 * be compiled). A schema object is compiled once.
 */
export function checkAgainstSchema(schema: object, value: unknown): string | undefined {
  let check = compiled.get(schema);
  if (check === undefined) {
    try {
      validator ??= new AjvJsonSchemaValidator();
      check = validator.getValidator(schema as never) as Check;
    } catch (error) {
      check = `the schema cannot be used: ${error instanceof Error ? error.message : String(error)}`;
    }
    compiled.set(schema, check);
  }
  if (typeof check === "string") return check;
  const result = check(value);
  return result.valid ? undefined : (result.errorMessage ?? "does not match the schema");
}

/**
 * The SDK client's JSON Schema validator, made on first use. v1 made one per
 * `Client` up front (a new Ajv with its meta-schema and formats: the largest
 * part of setting a connection up); v2's builds its Ajv on first use too, and
 * this keeps a connection's setup from depending on that. One per connection,
 * as the SDK's own, so no two servers share compiled schemas.
 */
export class LazySchemaValidator implements jsonSchemaValidator {
  #validator: AjvJsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.#validator ??= new AjvJsonSchemaValidator();
    return this.#validator.getValidator<T>(schema);
  }
}
