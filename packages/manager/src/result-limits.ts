// What a tool result may hold by default: read where the options are resolved (server/) and where a
// result is cut (tools/), which do not import each other.

/** Default of `resultCharLimit`: characters of text a result may hold. */
export const DEFAULT_RESULT_CHAR_LIMIT = 100_000;

/** Default of `resultMediaByteLimit`: bytes of image data a result may hold (5 MiB, what model APIs take per image). */
export const DEFAULT_RESULT_MEDIA_BYTE_LIMIT: number = 5 * 1024 * 1024;
