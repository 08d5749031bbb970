export type { RedisAuthStorageOptions } from "./redis-auth-storage.js";
export { createRedisAuthStorage } from "./redis-auth-storage.js";
export { createRedisStore } from "./redis-store.js";
export type { RedisStoreOptions } from "./redis-store-options.js";
