import stripAnsi from "strip-ansi";

// C0 controls but tab and line feed (carriage return and backspace overwrite what is
// shown), DEL, and C1 controls (U+0080–U+009F; some terminals obey U+009B as CSI).
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text safe to write to a terminal: escape sequences removed (`strip-ansi`:
 * colours, cursor moves, screen clears, OSC sequences such as the clipboard
 * write `ESC ]52;…`), then every other control character but tab and line
 * feed. The agent shows text servers wrote — tool names, descriptions,
 * results, error messages with their stderr — only through this.
 */
export function terminalSafe(text: string): string {
  return stripAnsi(text).replace(CONTROLS, "");
}

// What JSON.stringify leaves as it is but a terminal may act on: DEL and the C1 controls.
const RAW_IN_JSON = /[\u007f-\u009f]/g;

/**
 * One JSON line safe to write to a terminal: `JSON.stringify` escapes C0
 * controls (ESC becomes `\u001b`) but not DEL or C1; those are escaped too.
 * The data stays exactly what it was for a program that parses the line.
 */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    RAW_IN_JSON,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
