import { callTool, checkStructuredContent, listTools } from "@mcp-rt/client";
import { afterEach, describe, expect, it } from "vitest";
import { LazySchemaValidator } from "../src/schema-check.js";
import { inlineServer, useConnections } from "./helpers.js";
import { checkNoPortsLeftAfterFile, startHttpServer, type TestHttpServer } from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

const { connect } = useConnections();

let schemaHost: TestHttpServer | undefined;
afterEach(async () => {
  await schemaHost?.close();
  schemaHost = undefined;
});

/** A tool whose schemas use JSON Schema 2020-12 keywords and `$ref`s to `origin`, which serves real schemas. */
function schemasOf(origin: string) {
  const inputSchema = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {
      user: { $ref: `${origin}/user.json` },
      tags: { type: "array", prefixItems: [{ type: "string" }], items: false },
      kind: { const: "lookup" },
      extra: { $ref: "#/$defs/extra" },
    },
    $defs: { extra: { type: "string", minLength: 1 } },
    dependentRequired: { user: ["kind"] },
    unevaluatedProperties: false,
    required: ["user"],
  };
  const outputSchema = {
    type: "object",
    properties: { found: { $ref: `${origin}/user.json` } },
    required: ["found"],
  };
  return { inputSchema, outputSchema };
}

describe("tool schemas with JSON Schema 2020-12 keywords and a network $ref", () => {
  it("keeps every keyword as listed and never fetches the $ref, listing, checking or calling", async () => {
    schemaHost = await startHttpServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/schema+json" });
      res.end(JSON.stringify({ type: "object", properties: { id: { type: "string" } } }));
    });
    const { inputSchema, outputSchema } = schemasOf(schemaHost.origin);
    const connection = await connect({
      name: "refs",
      config: inlineServer([
        'import { Server } from "@modelcontextprotocol/server";',
        'import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";',
        'const server = new Server({ name: "refs", version: "1.0.0" }, { capabilities: { tools: {} } });',
        `const tool = { name: "lookup", inputSchema: ${JSON.stringify(inputSchema)}, outputSchema: ${JSON.stringify(outputSchema)} };`,
        'server.setRequestHandler("tools/list", () => ({ tools: [tool] }));',
        'server.setRequestHandler("tools/call", () => ({ content: [{ type: "text", text: "ok" }], structuredContent: { found: { id: "u1" } } }));',
        "await server.connect(new StdioServerTransport());",
      ]),
    });
    const [tool] = await listTools(connection);
    expect(tool?.inputSchema).toStrictEqual(inputSchema);
    expect(tool?.outputSchema).toStrictEqual(outputSchema);

    const result = await callTool(connection, {
      name: "lookup",
      args: { user: { id: "u1" }, kind: "lookup" },
    });
    expect(result.isError).not.toBe(true);
    // The reference cannot be resolved without fetching it: the check says so instead.
    const problem = checkStructuredContent(tool?.outputSchema, result);
    expect(problem).toMatch(
      /^structuredContent does not match the tool's output schema: the schema cannot be used: /,
    );
    expect(problem).toContain(`${schemaHost.origin}/user.json`);
    // The SDK client's own validator (one per connection) does not fetch it either.
    expect(() => new LazySchemaValidator().getValidator(outputSchema as never)).toThrow(/user\.json/);
    expect(schemaHost.requests).toEqual([]);
  });
});
