import type { ContenderId } from "../tasks.js";
import type { ContenderModule } from "./contender.js";

/** Loads only the contender asked for, so no other library is in the process. */
export async function loadContender(id: ContenderId): Promise<ContenderModule> {
  switch (id) {
    case "mcp-rt":
    case "mcp-rt-cache-first":
    case "mcp-rt-approvals":
      return import("./mcp-rt.js");
    case "raw-sdk":
      return (await import("./raw-sdk.js")).rawSdk;
    case "raw-sdk-v2":
      return (await import("./raw-sdk-v2.js")).rawSdkV2;
    case "raw-sdk-v2-auto":
      return (await import("./raw-sdk-v2.js")).rawSdkV2Auto;
    case "langchain":
      return import("./langchain.js");
  }
}
