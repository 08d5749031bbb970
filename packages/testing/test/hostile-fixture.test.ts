import { describe, expect, it } from "vitest";
import { fixtureServer, hugeOutputServer, TERMINAL_ESCAPES } from "../src/index.js";
import { closeSessionsAfterEach, connectStdio } from "./helpers.js";

closeSessionsAfterEach();

/** A schema level of the `deep` tool. */
interface SchemaNode {
  properties?: { next?: SchemaNode };
}

/** How deep `properties.next` goes, counted without recursion. */
function nextDepth(schema: SchemaNode): number {
  let depth = 0;
  for (let node = schema.properties?.next; node; node = node.properties?.next) depth++;
  return depth;
}

/** A result schema that takes any result as it is. */
const asSent = {
  "~standard": { version: 1, vendor: "test", validate: (value: unknown) => ({ value }) },
} as const;

describe("hostile modes", () => {
  it("descriptionChars makes every description exactly that long", async () => {
    const { client } = await connectStdio(fixtureServer({ tools: 3, descriptionChars: 5000 }));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.description?.length)).toEqual([5000, 5000, 5000, 5000]);
    expect(tools[0]?.description).toMatch(/^Returns `message` unchanged\. Lorem/);
  });

  it("schemaDepth sends a schema deeper than JSON.stringify can write", async () => {
    const { client } = await connectStdio(fixtureServer({ schemaDepth: 20_000 }));
    // As sent: the SDK's own result schema recurses through the schema and runs out of stack.
    const listed = await client.request({ method: "tools/list", params: {} }, asSent);
    const deep = (listed as { tools: Array<{ name: string; inputSchema: unknown }> }).tools.find(
      (tool) => tool.name === "deep",
    );
    expect(nextDepth(deep!.inputSchema as SchemaNode)).toBe(20_000);
    expect(() => JSON.stringify(deep!.inputSchema)).toThrow(RangeError);
  });

  it("longToolName adds a tool with a name of that many characters", async () => {
    const { client } = await connectStdio(fixtureServer({ longToolName: 1000 }));
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names.find((name) => name.startsWith("long_name_"))?.length).toBe(1000);
  });

  it("escapes puts terminal escape sequences in names, descriptions, results, instructions and stderr", async () => {
    const session = await connectStdio(fixtureServer({ escapes: true }));
    const { client } = session;
    const tool = (await client.listTools()).tools.find((entry) => entry.name.startsWith("escape"));
    expect(tool?.name).toBe(`escape${TERMINAL_ESCAPES}`);
    expect(tool?.description).toContain(TERMINAL_ESCAPES);
    expect(client.getServerVersion()?.name).toContain(TERMINAL_ESCAPES);
    expect(client.getInstructions()).toContain(TERMINAL_ESCAPES);
    const result = await client.callTool({ name: tool!.name, arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: `before${TERMINAL_ESCAPES}after` }]);
    expect(session.stderr()).toContain(TERMINAL_ESCAPES);
  });

  it("listChangedStorm announces a change after every tools/list", async () => {
    const { client } = await connectStdio(fixtureServer({ listChangedStorm: true }));
    let announced = 0;
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      announced++;
    });
    for (let i = 0; i < 3; i++) await client.listTools();
    await expect.poll(() => announced).toBe(3);
  });

  it("huge returns an image or audio block of that many bytes", async () => {
    const { client } = await connectStdio(hugeOutputServer());
    const image = await client.callTool({ name: "huge", arguments: { bytes: 3000, type: "image" } });
    const audio = await client.callTool({ name: "huge", arguments: { bytes: 10, type: "audio" } });
    const [block] = image.content as Array<{ type: string; data: string; mimeType: string }>;
    expect(block).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(Buffer.from(block!.data, "base64")).toHaveLength(3000);
    expect(audio.content).toEqual([{ type: "audio", mimeType: "audio/wav", data: "WlpaWlpaWlpaWg==" }]);
  });
});
