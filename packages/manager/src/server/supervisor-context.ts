import type { MCPToolCache } from "@mcp-rt/cache";
import type { TaskGroup } from "@mcp-rt/config/util";
import type { ToolApprovalKeeper } from "../approvals/approval-keeper.js";
import type { TypedEmitter } from "../event-emitter.js";
import type { MCPManagerEvents } from "../manager-types.js";
import type { Attempt } from "./attempt.js";
import type { ConnectAndList, ConnectSettings } from "./connect-and-list.js";
import type { ResolvedReconnectOptions } from "./reconnect-policy.js";
import type { ServerLimits } from "./server-limits.js";

/** A start's place among the servers starting at once: given back once the server answered or the attempt ended. */
export interface StartSlot {
  /** Gives the slot back (idempotent). */
  release(): void;
}

/** When the steps of a start may run: the start path's pace, shared by every server of a fleet. */
export interface StartPacing {
  /** Follows a new attempt (its cache read, its settling). */
  track(attempt: Attempt): void;
  /** Resolves when `attempt` may load the client and connect, with its start slot (never rejects). */
  beforeConnect(attempt: Attempt): Promise<StartSlot>;
  /** Resolves when a cache write may start. */
  beforeCacheWrite(): Promise<void>;
  /** A call waits for `name`, still queued for its start: it goes first. */
  hurry(name: string): void;
}

/** What a `ServerSupervisor` is given: the few services of its fleet it uses, never the fleet. */
export interface SupervisorContext {
  /** How connections are made (the project folder and logger among them). */
  settings: ConnectSettings;
  /** What each server may send. */
  limits: ServerLimits;
  /** How dropped servers are reconnected; `null` when reconnecting is off. */
  reconnect: ResolvedReconnectOptions | null;
  /** The tool cache, once open (`null` without one). */
  cache: { get(): Promise<MCPToolCache | null> };
  emitter: TypedEmitter<MCPManagerEvents>;
  /** Background work `disconnectAll` waits for. */
  tasks: Pick<TaskGroup, "add">;
  pace: StartPacing;
  /** The exposed tools: told when a server's slice changed, to name the set again when it is next read. */
  catalog: { invalidate(): void };
  /** Approved tool definitions: read with each attempt, every list judged. */
  approvals: ToolApprovalKeeper;
  /** Distinctive tool names of every server but `name` (the poisoning check's `other-tools` rule). */
  otherTools(name: string): ReadonlySet<string>;
  /** Runs one attempt: `connectAndList` (a test hands the supervisor scripted results instead). */
  connectAndList: ConnectAndList;
}
