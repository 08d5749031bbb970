/** `maxMessageBytes` when none is given: the SDK's own stdio limit, 10 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES: number = 10 * 1024 * 1024;
