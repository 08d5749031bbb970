import { toolCacheContractTests } from "@mcp-rt/cache/contract";
import { describe, it } from "vitest";

describe("MCPToolCache on a Map (memory)", () => {
  toolCacheContractTests(it, () => new Map<string, unknown>());
});
