// The client the MCP conformance suite drives: `conformance client --command
// "node client.mjs" --scenario <name>` starts a scenario's server, appends its
// URL to the command and names the scenario in MCP_CONFORMANCE_SCENARIO. Built
// only from @mcp-rt/client's public API (the BUILT package, through its
// exports map), with the URL as a config without `type`, as a user writes it.
import { callTool, closeConnection, connectToServer, listTools } from "@mcp-rt/client";

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "initialize";

/** What each scenario does between connect and close; unknown ones only connect and list. */
const scenarios = {
  initialize: async () => {},
  tools_call: async (connection, tools) => {
    if (!tools.some((tool) => tool.name === "add_numbers")) throw new Error("no add_numbers tool listed");
    const result = await callTool(connection, "add_numbers", { a: 5, b: 3 });
    const text = result.content.find((block) => block.type === "text")?.text ?? "";
    if (result.isError || !text.includes("8"))
      throw new Error(`unexpected add_numbers result: ${JSON.stringify(result)}`);
  },
  "sse-retry": async (connection) => {
    // The server closes the call's stream after a priming event; the answer only
    // arrives if the client resumes with GET + Last-Event-ID after `retry` ms.
    const result = await callTool(connection, "test_reconnection", {}, { timeout: 15_000 });
    if (result.isError) throw new Error(`test_reconnection failed: ${JSON.stringify(result)}`);
  },
};

if (!url || !/^https?:\/\//.test(url)) {
  console.error(`usage: node client.mjs <server-url> (got ${JSON.stringify(url)})`);
  process.exit(2);
}
const connection = await connectToServer("conformance", { url, timeout: 15_000 });
let failed = false;
try {
  console.log(
    `connected over ${connection.transport} to ${connection.serverInfo.name} (${connection.protocolVersion})`,
  );
  const tools = await listTools(connection);
  console.log(`tools: ${tools.map((tool) => tool.name).join(", ") || "(none)"}`);
  await (scenarios[scenario] ?? scenarios.initialize)(connection, tools);
  console.log(`scenario ${scenario} done`);
} catch (error) {
  failed = true;
  console.error(`scenario ${scenario} failed:`, error);
} finally {
  await closeConnection(connection);
}
process.exit(failed ? 1 : 0);
