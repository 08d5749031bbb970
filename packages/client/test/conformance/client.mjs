// The client the MCP conformance suite drives: `conformance client --command
// "node client.mjs" --scenario <name>` starts a scenario's server, appends its
// URL to the command, names the scenario in MCP_CONFORMANCE_SCENARIO and, for
// some scenarios, passes credentials in MCP_CONFORMANCE_CONTEXT. Built only
// from the public API of the BUILT packages (through their exports maps): the
// URL is a config without `type`, as a user writes it; OAuth is connectToServer's
// `oauth` option with the browser stand-in of @mcp-rt/testing as `openUrl`.
import { callTool, closeConnection, connectToServer, listTools } from "@mcp-rt/client";
import { createMemoryAuthStorage } from "@mcp-rt/config";
import { createBrowserStandIn } from "@mcp-rt/testing";

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "initialize";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
// The client id metadata document the auth/basic-cimd scenario expects; servers that do not support one never see it.
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/** What each scenario does between connect and close; unknown ones (auth/*) list tools and call the first. */
const scenarios = {
  initialize: async () => {},
  tools_call: async (connection, tools) => {
    if (!tools.some((tool) => tool.name === "add_numbers")) throw new Error("no add_numbers tool listed");
    const result = await callTool(connection, { name: "add_numbers", args: { a: 5, b: 3 } });
    const text = result.content.find((block) => block.type === "text")?.text ?? "";
    if (result.isError || !text.includes("8"))
      throw new Error(`unexpected add_numbers result: ${JSON.stringify(result)}`);
  },
  "sse-retry": async (connection) => {
    // The server closes the call's stream after a priming event; the answer only
    // arrives if the client resumes with GET + Last-Event-ID after `retry` ms.
    const result = await callTool(connection, { name: "test_reconnection", args: {}, timeout: 15_000 });
    if (result.isError) throw new Error(`test_reconnection failed: ${JSON.stringify(result)}`);
  },
  "json-schema-2020-12-preservation": async (connection, tools) => {
    // Hands back the inputSchema listTools gave, so the suite sees which keywords survived.
    const focal = tools.find((tool) => tool.name === "json_schema_2020_12_tool");
    if (!focal) throw new Error("no json_schema_2020_12_tool listed");
    await callTool(connection, { name: "json_schema_echo", args: { schema: focal.inputSchema } });
  },
  "elicitation-sep1034-client-defaults": async (connection) => {
    // The user accepts without filling anything in: the client must send the schema's defaults.
    const result = await callTool(connection, { name: "test_client_elicitation_defaults", args: {} });
    if (result.isError) throw new Error(`test_client_elicitation_defaults failed: ${JSON.stringify(result)}`);
  },
  "sep-2322-client-request-state": async (connection) => {
    // Two tools ask for a confirmation (input_required, with and without a requestState) that
    // onElicitation answers; one is plain; one answers without resultType, which means complete.
    for (const name of [
      "test_mrtr_echo_state",
      "test_mrtr_no_state",
      "test_mrtr_unrelated",
      "test_mrtr_no_result_type",
    ]) {
      const result = await callTool(connection, { name, args: {} });
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result)}`);
      console.log(`${name}: ${JSON.stringify(result.content)}`);
    }
  },
  "json-schema-ref-no-deref": async (_connection, tools) => {
    // Only listing is tested (a network $ref must not be fetched); the server has no tools/call.
    if (!tools.some((tool) => tool.name === "lookup_user")) throw new Error("no lookup_user tool listed");
  },
  default: async (connection, tools) => {
    // Scenarios that name their calls (http-custom-headers) get exactly those, with their arguments.
    if (Array.isArray(context.toolCalls)) {
      for (const { name, arguments: args } of context.toolCalls) {
        const result = await callTool(connection, { name, args });
        if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result)}`);
      }
      return;
    }
    // The auth scenarios protect tools/call (some with a scope of its own: a step-up).
    if (tools[0]) await callTool(connection, { name: tools[0].name, args: {} });
  },
};

if (!url || !/^https?:\/\//.test(url)) {
  console.error(`usage: node client.mjs <server-url> (got ${JSON.stringify(url)})`);
  process.exit(2);
}
const config = { url, timeout: 15_000 };
if (typeof context.client_id === "string") {
  // A pre-registered client, as a user would configure one.
  config.auth = { type: "oauth", clientId: context.client_id, clientSecret: context.client_secret };
}
const browser = createBrowserStandIn();
const connection = await connectToServer({
  name: "conformance",
  config,
  oauth: {
    storage: createMemoryAuthStorage(),
    openUrl: browser.openUrl,
    interactive: true,
    signInTimeoutMs: 10_000,
    clientMetadataUrl: CLIENT_METADATA_URL,
  },
  // Every form is accepted as it comes: fields left out get the schema's defaults.
  onElicitation: () => ({ action: "accept", content: {} }),
});
let failed = false;
try {
  // With --spec-version the suite names the revision: a 2026-07-28 run must land on it (protocol "auto").
  const asked = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
  if (asked === "2026-07-28" && connection.protocolVersion !== asked)
    throw new Error(`asked to speak ${asked}, connected with ${connection.protocolVersion}`);
  console.log(
    `connected over ${connection.transport} to ${connection.serverInfo.name} (${connection.protocolVersion})`,
  );
  const tools = await listTools(connection);
  console.log(`tools: ${tools.map((tool) => tool.name).join(", ") || "(none)"}`);
  await (scenarios[scenario] ?? scenarios.default)(connection, tools);
  console.log(`scenario ${scenario} done (${browser.visits.length} sign-in(s))`);
} catch (error) {
  failed = true;
  console.error(`scenario ${scenario} failed:`, error);
} finally {
  await closeConnection(connection);
}
process.exit(failed ? 1 : 0);
