import { describe, expect, it } from "vitest";
import { paramHeaders, scanParamHeaders } from "../src/remote/mcp-param-headers.js";

const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

describe("x-mcp-header marks (SEP-2243)", () => {
  it("finds marks at any depth of properties", () => {
    const scan = scanParamHeaders(
      schema({
        region: { type: "string", "x-mcp-header": "Region" },
        options: { type: "object", properties: { verbose: { type: "boolean", "x-mcp-header": "Verbose" } } },
        query: { type: "string" },
      }),
    );
    expect(scan.valid).toBe(true);
    expect(scan.valid && scan.declarations).toEqual(
      expect.arrayContaining([
        { path: ["region"], headerName: "Region" },
        { path: ["options", "verbose"], headerName: "Verbose" },
      ]),
    );
  });

  it.each([
    ["an empty name", schema({ a: { type: "string", "x-mcp-header": "" } })],
    ["a name with a space", schema({ a: { type: "string", "x-mcp-header": "My Header" } })],
    ["a number property", schema({ a: { type: "number", "x-mcp-header": "A" } })],
    ["an object property", schema({ a: { type: "object", "x-mcp-header": "A" } })],
    [
      "a name used twice, in any case",
      schema({ a: { type: "string", "x-mcp-header": "Dup" }, b: { type: "string", "x-mcp-header": "dup" } }),
    ],
    ["a mark under items", schema({ a: { type: "array", items: { type: "string", "x-mcp-header": "A" } } })],
    ["a mark under anyOf", schema({}, { anyOf: [schema({ a: { type: "string", "x-mcp-header": "A" } })] })],
    ["a mark on the root", { type: "object", "x-mcp-header": "Root" }],
  ])("refuses %s", (_what, inputSchema) => {
    expect(scanParamHeaders(inputSchema).valid).toBe(false);
  });

  it("sends marked values as text, base64 where HTTP cannot carry them, and leaves out null and absent ones", () => {
    const declarations = [
      { path: ["region"], headerName: "Region" },
      { path: ["priority"], headerName: "Priority" },
      { path: ["debug"], headerName: "Debug" },
      { path: ["greeting"], headerName: "Greeting" },
      { path: ["padded"], headerName: "Padded" },
      { path: ["empty"], headerName: "Empty" },
      { path: ["gone"], headerName: "Gone" },
      { path: ["nothing"], headerName: "Nothing" },
    ];
    const headers = paramHeaders(declarations, {
      region: "us-west1",
      priority: 42,
      debug: false,
      greeting: "Hello, 世界",
      padded: " x ",
      empty: "",
      nothing: null,
    });
    expect(headers).toEqual({
      "Mcp-Param-Region": "us-west1",
      "Mcp-Param-Priority": "42",
      "Mcp-Param-Debug": "false",
      "Mcp-Param-Greeting": `=?base64?${Buffer.from("Hello, 世界").toString("base64")}?=`,
      "Mcp-Param-Padded": `=?base64?${Buffer.from(" x ").toString("base64")}?=`,
      "Mcp-Param-Empty": "=?base64??=",
    });
    expect(paramHeaders(declarations, {})).toBeUndefined();
  });
});
