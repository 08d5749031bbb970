export type {
  ApprovedDefinitions,
  ToolApprovalChange,
  ToolApprovalIdentity,
  ToolApprovalRecord,
} from "./approvals/approval-record.js";
export { withApproved, withDeclined } from "./approvals/approval-record.js";
export type { ToolApprovalsFromUrlOptions } from "./approvals/create-tool-approvals.js";
export { createToolApprovals } from "./approvals/create-tool-approvals.js";
export type {
  MCPToolApprovalsOptions,
  ToolApprovalRead,
  ToolApprovalsStore,
} from "./approvals/mcp-tool-approvals.js";
export { MCPToolApprovals } from "./approvals/mcp-tool-approvals.js";
export { toolDefinitionDigest } from "./approvals/tool-digest.js";
export type {
  CachedServerInfo,
  MCPToolCacheEntry,
  MCPToolCacheEra,
  MCPToolCacheFacts,
  MCPToolCacheFailedStartup,
  MCPToolCacheListHint,
  MCPToolCacheMissedStartup,
} from "./cache-entry.js";
export {
  CachedServerInfoSchema,
  MCPToolCacheEntrySchema,
  MCPToolCacheEraSchema,
  MCPToolCacheListHintSchema,
} from "./cache-entry.js";
export type { AuthStorageUrlOptions } from "./create-auth-storage.js";
export { createAuthStorage } from "./create-auth-storage.js";
export type { CacheFromUrlOptions } from "./create-cache-from-url.js";
export { createCacheFromUrl } from "./create-cache-from-url.js";
export type { FileStore, FileStoreOptions } from "./file-store.js";
export { createFileStore, defaultCacheDir } from "./file-store.js";
export type { ToolCacheServer } from "./fingerprint.js";
export { CACHE_FORMAT_VERSION, toolCacheFingerprint } from "./fingerprint.js";
export type { KeychainAuthStorageOptions, KeyringModule } from "./keychain-auth-storage.js";
export { createKeychainAuthStorage } from "./keychain-auth-storage.js";
export { MCPToolCache } from "./mcp-tool-cache.js";
export type {
  MCPToolCacheDeleteOptions,
  MCPToolCacheFailureOptions,
  MCPToolCacheNoteOptions,
  MCPToolCacheOptions,
  MCPToolCacheRead,
  MCPToolCacheReadOptions,
  MCPToolCacheSetOptions,
} from "./mcp-tool-cache-options.js";
export type { RedisAuthStorageOptions } from "./redis-auth-storage.js";
export type { RedisStoreOptions } from "./redis-store-options.js";
export type { ToolCacheStore } from "./store-keyv.js";
