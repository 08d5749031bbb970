import type * as NodeReadline from "node:readline";

/** The `node:readline` module's types. */
export type { NodeReadline as Readline };

/** `node:readline`, loaded when a terminal first needs it (with what it pulls in), not on every start. */
export const readline = (): typeof NodeReadline => process.getBuiltinModule("node:readline");
