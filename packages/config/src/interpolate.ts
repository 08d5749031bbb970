import { fieldKey, isPlainObject, setOwn } from "./describe-value.js";

/**
 * The placeholder forms a provider's files use (§7). Every syntax understands
 * `${VAR}` and `${VAR:-default}` (default when `VAR` is unset or empty).
 * `vscode` and `cursor` name the editors' own forms (`${env:VAR}`,
 * `${workspaceFolder}`, `${userHome}`, VS Code's `${input:id}`), which are
 * left as written until those forms are expanded too.
 */
export type InterpolationSyntax = "posix" | "vscode" | "cursor";

/** What placeholders expand to. */
export interface InterpolationOptions {
  /** The provider's placeholder forms. @default "posix" */
  syntax?: InterpolationSyntax;
  /** Values of `${VAR}`. */
  env: Record<string, string | undefined>;
  /** The project folder (`${workspaceFolder}`). */
  cwd?: string;
  /** The user's home folder (`${userHome}`). */
  homeDir?: string;
  /** VS Code `inputs` of the file, by id. */
  inputs?: Record<string, unknown>;
  /** Answers VS Code `${input:id}` placeholders. */
  resolveInput?: (id: string, input: unknown) => Promise<string | undefined>;
}

/** A string with its placeholders expanded, and the variables that had no value. */
export interface InterpolatedString {
  value: string;
  /** Variables that were unset and had no default, in order of appearance, once each. */
  missing: string[];
}

/** One unresolved placeholder of a server config. */
export interface MissingVariable {
  /** The variable, e.g. `GITHUB_TOKEN`. */
  variable: string;
  /** Where it was used, e.g. `headers.Authorization`. */
  field: string;
}

/** A config with its placeholders expanded; `missing` non-empty means it cannot be used. */
export interface InterpolatedConfig {
  config: unknown;
  missing: MissingVariable[];
}

// `${NAME}` or `${NAME:-default}`; the default runs to the first `}`.
const POSIX_PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` in one string. A value is never
 * expanded again, so a variable holding `${X}` stays literal.
 *
 * @example
 * ```ts
 * await interpolateString("Bearer ${TOKEN}", { env: { TOKEN: "t" } }); // { value: "Bearer t", missing: [] }
 * ```
 */
export async function interpolateString(
  template: string,
  options: InterpolationOptions,
): Promise<InterpolatedString> {
  const missing: string[] = [];
  const value = template.replace(POSIX_PLACEHOLDER, (whole, name: string, fallback: string | undefined) => {
    const current = options.env[name];
    if (fallback !== undefined) return current === undefined || current === "" ? fallback : current;
    if (current !== undefined) return current;
    if (!missing.includes(name)) missing.push(name);
    return whole;
  });
  return { value, missing };
}

/**
 * Expands placeholders in the fields of a (mapped, not yet validated) server
 * config that take them: `command`, `args`, `env`, `url`, `headers` (§7), and
 * `cwd`. Fields of the wrong shape are left for validation to report. Returns
 * a new object; `config` is not changed.
 */
export async function interpolateServerConfig(
  config: unknown,
  options: InterpolationOptions,
): Promise<InterpolatedConfig> {
  if (!isPlainObject(config)) return { config, missing: [] };
  const out: Record<string, unknown> = { ...config };
  const missing: MissingVariable[] = [];
  const expand = async (value: string, field: string): Promise<string> => {
    const result = await interpolateString(value, options);
    for (const variable of result.missing) missing.push({ variable, field });
    return result.value;
  };

  for (const field of ["command", "url", "cwd"] as const) {
    const value = out[field];
    if (typeof value === "string") out[field] = await expand(value, field);
  }
  const args = out.args;
  if (Array.isArray(args)) {
    out.args = await Promise.all(
      args.map((arg, i) => (typeof arg === "string" ? expand(arg, `args[${i}]`) : arg)),
    );
  }
  for (const field of ["env", "headers"] as const) {
    const record = out[field];
    if (!isPlainObject(record)) continue;
    const expanded: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) {
      setOwn(
        expanded,
        key,
        typeof value === "string" ? await expand(value, `${field}${fieldKey(key)}`) : value,
      );
    }
    out[field] = expanded;
  }
  return { config: out, missing };
}
