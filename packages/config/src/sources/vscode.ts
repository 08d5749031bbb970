import { join } from "node:path";
import { appConfigDir } from "../app-config-dir.js";
import type { CapabilitySource, DiscoveryContext } from "../types.js";
import { isPlainObject, setOwn } from "../util/describe-value.js";
import { defineFileSource } from "./define-file-source.js";
import { pickFields, transportType } from "./entry-fields.js";
import type { EntryContext, EntryMapping, FileSourceFile } from "./file-source.js";

/**
 * Maps a VS Code entry of `servers`: `type` (`stdio` | `http` | `sse`),
 * `command`, `args`, `env`, `envFile`, `cwd`, `url`, `headers`; the file's
 * `inputs` travel with it for `${input:id}`. `enabled` is mcp-rt's switch,
 * honoured in every provider's file.
 */
export function mapVsCodeEntry(
  entry: Record<string, unknown>,
  info: Pick<EntryContext, "document">,
): EntryMapping {
  const config = pickFields(entry, ["command", "args", "env", "cwd", "url", "headers", "enabled"]);
  if (entry.type !== undefined) config.type = transportType(entry.type);
  return {
    config,
    interpolation: { syntax: "vscode", inputs: inputsById(info.document.inputs) },
    ...(typeof entry.envFile === "string" ? { envFile: entry.envFile } : {}),
  };
}

/**
 * VS Code's `mcp.json`, JSON with comments: `.vscode/mcp.json` (project) and
 * the user profile's `Code/User/mcp.json` in the OS's app-config folder.
 * Servers sit under `servers`, prompts for secrets under `inputs`.
 */
export function createVsCodeSource(): CapabilitySource {
  return defineFileSource({
    id: "vscode",
    name: "VS Code",
    priority: 100,
    files: vsCodeFiles,
    map: mapVsCodeEntry,
  });
}

function vsCodeFiles(ctx: DiscoveryContext): FileSourceFile[] {
  return [
    { path: join(ctx.cwd, ".vscode", "mcp.json"), level: "project", format: "jsonc", key: "servers" },
    {
      path: join(appConfigDir(ctx), "Code", "User", "mcp.json"),
      level: "user",
      format: "jsonc",
      key: "servers",
    },
  ];
}

function inputsById(inputs: unknown): Record<string, unknown> {
  const byId: Record<string, unknown> = {};
  if (!Array.isArray(inputs)) return byId;
  for (const input of inputs) {
    if (isPlainObject(input) && typeof input.id === "string") setOwn(byId, input.id, input);
  }
  return byId;
}
