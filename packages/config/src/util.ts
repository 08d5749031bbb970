/**
 * Internal: helpers shared by mcp-rt's own packages. No semver promise; an
 * export here may change or go in any release.
 *
 * @packageDocumentation
 */

export type { FileLockOptions } from "./file-lock.js";
export { withFileLock } from "./file-lock.js";
export { abortError } from "./util/abort-error.js";
export type { PathContext } from "./util/display-path.js";
export { displayPath } from "./util/display-path.js";
export { errorMessage, errorText } from "./util/error-message.js";
export { errorStack } from "./util/error-stack.js";
export { firstSettled } from "./util/first-settled.js";
export { inConfig } from "./util/in-config.js";
export { lazy } from "./util/lazy.js";
export type { JsonMeasure, MeasureJsonLimits } from "./util/measure-json.js";
export { measureJson } from "./util/measure-json.js";
export { monotonicMs } from "./util/monotonic-ms.js";
export { plural } from "./util/plural.js";
export type { SecretInput } from "./util/read-secret.js";
export { readSecret } from "./util/read-secret.js";
export type { Settled, SettleTimeout } from "./util/settle-within.js";
export { settleWithin } from "./util/settle-within.js";
export { TaskGroup } from "./util/task-group.js";
export { MAX_TIMER_MS, timerMs } from "./util/timer-ms.js";
export type { WriteJsonAtomicOptions } from "./util/write-json-atomic.js";
export { writeJsonAtomic } from "./util/write-json-atomic.js";
export { z } from "./util/zod.js";
