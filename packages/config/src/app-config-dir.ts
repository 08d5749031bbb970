import { isAbsolute, join } from "node:path";
import type { DiscoveryContext } from "./types.js";

/**
 * The OS folder where desktop apps keep their settings, from the discovery
 * context (so tests can point it at a fixture home):
 *
 * - macOS: `~/Library/Application Support`
 * - Windows: `%APPDATA%`, else `~/AppData/Roaming`
 * - Linux and others: `$XDG_CONFIG_HOME` when set to an absolute path, else `~/.config`
 */
export function appConfigDir(ctx: Pick<DiscoveryContext, "homeDir" | "env" | "platform">): string {
  switch (ctx.platform) {
    case "darwin":
      return join(ctx.homeDir, "Library", "Application Support");
    case "win32":
      return ctx.env.APPDATA || join(ctx.homeDir, "AppData", "Roaming");
    default: {
      const xdg = ctx.env.XDG_CONFIG_HOME;
      return xdg && isAbsolute(xdg) ? xdg : join(ctx.homeDir, ".config");
    }
  }
}
