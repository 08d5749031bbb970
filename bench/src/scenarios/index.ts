import type { Scenario } from "../scenario.js";
import { agentStart } from "./agent-start.js";
import { bigToolList } from "./big-tool-list.js";
import { busyCacheReads } from "./busy-cache-reads.js";
import { cacheStores } from "./cache-stores.js";
import { callOverhead } from "./call-overhead.js";
import { coldStart } from "./cold-start.js";
import { eras } from "./eras.js";
import { manyServers } from "./many-servers.js";
import { realServersScenario } from "./real-servers.js";
import { reload } from "./reload.js";
import { scale } from "./scale.js";
import { toolSearch } from "./tool-search.js";
import { warmStart } from "./warm-start.js";

/** Every scenario of the issue, in its order. */
export const SCENARIOS: readonly Scenario[] = [
  warmStart,
  coldStart,
  callOverhead,
  scale,
  reload,
  bigToolList,
  cacheStores,
  toolSearch,
  agentStart,
  realServersScenario,
  busyCacheReads,
  eras,
  manyServers,
];
