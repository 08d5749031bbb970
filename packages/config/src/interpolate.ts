import { fieldKey, isPlainObject, setOwn } from "./describe-value.js";

/**
 * The placeholder forms a provider's files use (§7). Every syntax understands
 * `${VAR}` and `${VAR:-default}` (default when `VAR` is unset or empty).
 * `vscode` and `cursor` also expand the editors' own forms: `${env:VAR}`,
 * `${workspaceFolder}`, `${workspaceFolderBasename}` and `${userHome}`;
 * `vscode` also `${input:id}` (through `resolveInput`). Under `posix` those
 * forms are left as written.
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
  /** VS Code `${input:id}` ids that got no answer (no `resolveInput`, or it gave none); absent when none. */
  missingInputs?: string[];
}

/** One unresolved placeholder of a server config. */
export interface MissingVariable {
  /** The variable, e.g. `GITHUB_TOKEN`. */
  variable: string;
  /** Where it was used, e.g. `headers.Authorization`. */
  field: string;
}

/** One VS Code `${input:id}` of a server config that got no answer. */
export interface MissingInput {
  /** The input's id. */
  input: string;
  /** Where it was used, e.g. `headers.Authorization`. */
  field: string;
}

/** A config with its placeholders expanded; `missing` or `missingInputs` non-empty means it cannot be used. */
export interface InterpolatedConfig {
  config: unknown;
  missing: MissingVariable[];
  /** Inputs that got no answer; absent when none. */
  missingInputs?: MissingInput[];
}

// `${NAME}`, `${NAME:-default}` (the default runs to the first `}`), and the
// editors' `${env:NAME}` and `${input:id}`; one pass, so an expanded value is
// never expanded again.
const PLACEHOLDER =
  /\$\{(?:env:([A-Za-z_][A-Za-z0-9_]*)|input:([^}]+)|([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?)\}/g;

const EDITOR_SYNTAXES: readonly InterpolationSyntax[] = ["vscode", "cursor"];

/**
 * Expands the placeholders of one string in the provider's syntax. A value is
 * never expanded again, so a variable holding `${X}` stays literal. Unset
 * variables and unanswered inputs are left as written and reported.
 *
 * @example
 * ```ts
 * await interpolateString("Bearer ${TOKEN}", { env: { TOKEN: "t" } }); // { value: "Bearer t", missing: [] }
 * await interpolateString("${workspaceFolder}/db", { syntax: "vscode", env: {}, cwd: "/p" }); // { value: "/p/db", … }
 * ```
 */
export async function interpolateString(
  template: string,
  options: InterpolationOptions,
): Promise<InterpolatedString> {
  const syntax = options.syntax ?? "posix";
  const editor = EDITOR_SYNTAXES.includes(syntax);
  const answers =
    syntax === "vscode" ? await answerInputs(template, options) : new Map<string, string | undefined>();
  const missing: string[] = [];
  const missingInputs: string[] = [];
  const note = (list: string[], name: string): void => {
    if (!list.includes(name)) list.push(name);
  };
  const value = template.replace(
    PLACEHOLDER,
    (whole, envName?: string, inputId?: string, name?: string, fallback?: string) => {
      if (envName !== undefined || inputId !== undefined) {
        if (!editor) return whole;
        if (envName !== undefined) return variable(envName, undefined) ?? whole;
        if (syntax !== "vscode" || inputId === undefined) return whole;
        const answer = answers.get(inputId);
        if (answer !== undefined) return answer;
        note(missingInputs, inputId);
        return whole;
      }
      if (name === undefined) return whole;
      if (editor && fallback === undefined) {
        const predefined = predefinedVariable(name, options);
        if (predefined !== undefined) return predefined;
      }
      return variable(name, fallback) ?? whole;
    },
  );

  function variable(name: string, fallback: string | undefined): string | undefined {
    const current = options.env[name];
    if (fallback !== undefined) return current === undefined || current === "" ? fallback : current;
    if (current !== undefined) return current;
    note(missing, name);
    return undefined;
  }

  return missingInputs.length > 0 ? { value, missing, missingInputs } : { value, missing };
}

function predefinedVariable(name: string, options: InterpolationOptions): string | undefined {
  switch (name) {
    case "workspaceFolder":
      return options.cwd;
    case "workspaceFolderBasename":
      return options.cwd === undefined ? undefined : options.cwd.split(/[\\/]/).filter(Boolean).pop();
    case "userHome":
      return options.homeDir;
    default:
      return undefined;
  }
}

// Asks `resolveInput` for every `${input:id}` of the string; an input it
// cannot answer (or that makes it throw) stays unanswered.
async function answerInputs(
  template: string,
  options: InterpolationOptions,
): Promise<Map<string, string | undefined>> {
  const answers = new Map<string, string | undefined>();
  const resolveInput = options.resolveInput;
  if (!resolveInput) return answers;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const id = match[2];
    if (id === undefined || answers.has(id)) continue;
    const input = options.inputs && Object.hasOwn(options.inputs, id) ? options.inputs[id] : undefined;
    answers.set(
      id,
      await Promise.resolve()
        .then(() => resolveInput(id, input))
        .catch(() => undefined),
    );
  }
  return answers;
}

/**
 * Wraps a `resolveInput` so each input (same id, same definition) is asked
 * once per load, however many servers and fields use it, as VS Code prompts
 * once. Concurrent asks share one answer.
 */
export function memoizeResolveInput(
  resolveInput: NonNullable<InterpolationOptions["resolveInput"]>,
): NonNullable<InterpolationOptions["resolveInput"]> {
  const asked = new Map<string, Promise<string | undefined>>();
  return (id, input) => {
    const key = JSON.stringify([id, input ?? null]);
    let answer = asked.get(key);
    if (!answer) {
      answer = Promise.resolve()
        .then(() => resolveInput(id, input))
        .catch(() => undefined);
      asked.set(key, answer);
    }
    return answer;
  };
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
  const missingInputs: MissingInput[] = [];
  const expand = async (value: string, field: string): Promise<string> => {
    const result = await interpolateString(value, options);
    for (const variable of result.missing) missing.push({ variable, field });
    for (const input of result.missingInputs ?? []) missingInputs.push({ input, field });
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
  return missingInputs.length > 0 ? { config: out, missing, missingInputs } : { config: out, missing };
}
