import type { ContenderId, Task, TaskResults } from "../tasks.js";

/** What a contender's module offers: a start-up, and the other tasks it can run. */
export interface ContenderModule {
  startup(task: Extract<Task, { kind: "startup" }>): Promise<TaskResults["startup"]>;
  calls?(task: Extract<Task, { kind: "calls" }>): Promise<TaskResults["calls"]>;
  reload?(task: Extract<Task, { kind: "reload" }>): Promise<TaskResults["reload"]>;
  toolCalls?(task: Extract<Task, { kind: "tool-calls" }>): Promise<TaskResults["tool-calls"]>;
}

/** Loads only the contender asked for, so no other library is in the process. */
export async function loadContender(id: ContenderId): Promise<ContenderModule> {
  switch (id) {
    case "mcp-rt":
    case "mcp-rt-cache-first":
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
