import { MCPToolDefinitionSchema } from "@mcp-rt/config";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toToolDefinition } from "../src/tool-definition.js";

const maybe = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof(arb, fc.constant(undefined), fc.anything(), fc.constant(null), fc.array(fc.anything()));

const tools = fc.record(
  {
    name: fc.oneof(fc.string(), fc.constant(""), fc.anything()),
    title: maybe(fc.string()),
    description: maybe(fc.string()),
    inputSchema: maybe(fc.dictionary(fc.string(), fc.anything())),
    outputSchema: maybe(fc.dictionary(fc.string(), fc.anything())),
    annotations: maybe(fc.dictionary(fc.string(), fc.anything())),
    _meta: maybe(
      fc.record(
        { ui: maybe(fc.record({ visibility: maybe(fc.array(fc.constantFrom("model", "app"))) })) },
        { requiredKeys: [] },
      ),
    ),
    extra: fc.anything(),
  },
  { requiredKeys: [] },
);

describe("toToolDefinition (the quick path of listTools)", () => {
  it("accepts exactly what MCPToolDefinitionSchema accepts, with the same result", () => {
    fc.assert(
      fc.property(fc.oneof(tools, fc.anything()), (tool) => {
        const zod = MCPToolDefinitionSchema.safeParse(tool);
        const quick = toToolDefinition(tool);
        // toEqual: zod keeps a key set to undefined, which JSON cannot carry anyway.
        if (zod.success) expect(quick).toEqual(zod.data);
        else expect(quick).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it("drops unknown fields and keeps the known ones", () => {
    expect(
      toToolDefinition({ name: "a", inputSchema: { type: "object" }, _meta: { x: 1 }, icons: [] }),
    ).toStrictEqual({ name: "a", inputSchema: { type: "object" } });
  });

  it("keeps of _meta only the MCP Apps visibility, so an app-only tool stays app-only", () => {
    const tool = {
      name: "a",
      inputSchema: { type: "object" },
      _meta: { ui: { resourceUri: "ui://a", visibility: ["app"] }, "x/y": 1 },
    };
    const expected = { name: "a", inputSchema: { type: "object" }, _meta: { ui: { visibility: ["app"] } } };
    expect(toToolDefinition(tool)).toStrictEqual(expected);
    expect(MCPToolDefinitionSchema.parse(tool)).toEqual(expected);
    // A cached definition parses back to itself.
    expect(MCPToolDefinitionSchema.parse(expected)).toEqual(expected);
  });
});
