import { describe, expect, it, vi } from "vitest";

const made = vi.hoisted(() => ({ count: 0 }));

vi.mock("@modelcontextprotocol/client/validators/ajv", async (importOriginal) => {
  const original = await importOriginal<typeof import("@modelcontextprotocol/client/validators/ajv")>();
  class CountedValidator extends original.AjvJsonSchemaValidator {
    constructor() {
      super();
      made.count += 1;
    }
  }
  return { ...original, AjvJsonSchemaValidator: CountedValidator };
});

const { LazySchemaValidator } = await import("../src/schema-check.js");

describe("LazySchemaValidator (the SDK client's output-schema validator)", () => {
  it("makes its Ajv instance on the first schema, not when the connection is set up, and keeps it", () => {
    made.count = 0;
    const validator = new LazySchemaValidator();
    expect(made.count).toBe(0);

    const check = validator.getValidator<{ n: number }>({
      type: "object",
      properties: { n: { type: "number" } },
      required: ["n"],
    });
    expect(made.count).toBe(1);
    expect(check({ n: 1 })).toMatchObject({ valid: true, data: { n: 1 } });
    expect(check({ n: "one" })).toMatchObject({ valid: false });

    validator.getValidator({ type: "string" });
    expect(made.count).toBe(1);
  });
});
