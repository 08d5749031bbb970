import type { Task, TaskResults } from "../tasks.js";

/** What a contender's module offers: a start-up, and the other tasks it can run. */
export interface ContenderModule {
  startup(task: Extract<Task, { kind: "startup" }>): Promise<TaskResults["startup"]>;
  calls?(task: Extract<Task, { kind: "calls" }>): Promise<TaskResults["calls"]>;
  reload?(task: Extract<Task, { kind: "reload" }>): Promise<TaskResults["reload"]>;
  toolCalls?(task: Extract<Task, { kind: "tool-calls" }>): Promise<TaskResults["tool-calls"]>;
}
