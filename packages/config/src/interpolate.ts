import { fieldKey, isPlainObject, setOwn } from "./util/describe-value.js";

/**
 * The placeholder forms a provider's files use, as each client documents
 * them. Every syntax understands `${VAR}` and `${VAR:-default}` (default when
 * `VAR` is unset or empty). On top of that:
 *
 * - `claude`: `${CLAUDE_PROJECT_DIR}` is the project folder unless the
 *   environment sets it, as in Claude Code;
 * - `gemini`: `$VAR` (Gemini CLI's bare form; left as written when unset, as
 *   Gemini does);
 * - `windsurf`: `${env:VAR}`;
 * - `cursor`: `${env:VAR}`, `${workspaceFolder}`, `${workspaceFolderBasename}`,
 *   `${userHome}`, `${pathSeparator}` and `${/}`;
 * - `vscode`: the `cursor` forms and `${input:id}` (through `resolveInput`).
 *
 * Under `posix` the other forms are left as written.
 */
export type InterpolationSyntax = "posix" | "claude" | "gemini" | "windsurf" | "cursor" | "vscode";

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
  /** The OS, for `${pathSeparator}` / `${/}` (`\\` on Windows). @default process.platform */
  platform?: NodeJS.Platform;
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
  /** How each of `missing` was written (`${env:TOKEN}`, `${TOKEN}`), by variable; absent when none. */
  written?: Record<string, string>;
  /** VS Code `${input:id}` ids that got no answer (no `resolveInput`, or it gave none); absent when none. */
  missingInputs?: string[];
}

/** One unresolved placeholder of a server config. */
export interface MissingVariable {
  /** The variable, e.g. `GITHUB_TOKEN`. */
  variable: string;
  /** Where it was used, e.g. `headers.Authorization`. */
  field: string;
  /** The placeholder as written, e.g. `${env:GITHUB_TOKEN}`. @default `${<variable>}` */
  placeholder?: string;
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

/** Which placeholder forms a syntax understands beyond `${VAR}` and `${VAR:-default}`. */
interface SyntaxForms {
  /** `${env:VAR}`. */
  env: boolean;
  /** `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}`, `${/}`. */
  editor: boolean;
  /** `${input:id}`. */
  input: boolean;
  /** `$VAR`. */
  bare: boolean;
  /** `${CLAUDE_PROJECT_DIR}` defaults to the project folder. */
  projectDir: boolean;
}

const NONE: SyntaxForms = { env: false, editor: false, input: false, bare: false, projectDir: false };
const FORMS: Record<InterpolationSyntax, SyntaxForms> = {
  posix: NONE,
  claude: { ...NONE, projectDir: true },
  gemini: { ...NONE, bare: true },
  windsurf: { ...NONE, env: true },
  cursor: { ...NONE, env: true, editor: true },
  vscode: { ...NONE, env: true, editor: true, input: true },
};

// `${NAME}`, `${NAME:-default}` (the default runs to the first `}`), the
// editors' `${env:NAME}`, `${input:id}` and `${/}`, and Gemini's bare `$NAME`;
// one pass, so an expanded value is never expanded again.
const PLACEHOLDER =
  /\$\{(?:env:(?<envName>[A-Za-z_][A-Za-z0-9_]*)|input:(?<inputId>[^}]+)|(?<slash>\/)|(?<name>[A-Za-z_][A-Za-z0-9_]*)(?::-(?<fallback>[^}]*))?)\}|\$(?<bare>[A-Za-z_][A-Za-z0-9_]*)/g;

interface PlaceholderGroups {
  envName?: string;
  inputId?: string;
  slash?: string;
  name?: string;
  fallback?: string;
  bare?: string;
}

/**
 * Expands the placeholders of one string in the provider's syntax. A value is
 * never expanded again, so a variable holding `${X}` stays literal. Unset
 * variables and unanswered inputs are left as written and reported (a bare
 * Gemini `$VAR` that is unset is only left as written, as Gemini does).
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
  const forms = FORMS[options.syntax ?? "posix"] ?? FORMS.posix;
  const answers = forms.input ? await answerInputs(template, options) : new Map<string, string | undefined>();
  const missing: string[] = [];
  const written: Record<string, string> = {};
  const missingInputs: string[] = [];

  const variable = (name: string, fallback: string | undefined, whole: string): string => {
    const current =
      options.env[name] ?? (forms.projectDir && name === "CLAUDE_PROJECT_DIR" ? options.cwd : undefined);
    if (fallback !== undefined) return current === undefined || current === "" ? fallback : current;
    if (current !== undefined) return current;
    if (!missing.includes(name)) {
      missing.push(name);
      setOwn(written, name, whole);
    }
    return whole;
  };

  const value = template.replace(PLACEHOLDER, (whole: string, ...rest: unknown[]) => {
    const groups = rest.at(-1) as PlaceholderGroups;
    if (groups.bare !== undefined) return forms.bare ? (options.env[groups.bare] ?? whole) : whole;
    if (groups.envName !== undefined) return forms.env ? variable(groups.envName, undefined, whole) : whole;
    if (groups.slash !== undefined) return forms.editor ? pathSeparator(options) : whole;
    if (groups.inputId !== undefined) {
      if (!forms.input) return whole;
      const answer = answers.get(groups.inputId);
      if (answer !== undefined) return answer;
      if (!missingInputs.includes(groups.inputId)) missingInputs.push(groups.inputId);
      return whole;
    }
    const name = groups.name as string;
    if (forms.editor && groups.fallback === undefined) {
      const predefined = predefinedVariable(name, options);
      if (predefined !== undefined) return predefined;
    }
    return variable(name, groups.fallback, whole);
  });

  return {
    value,
    missing,
    ...(missing.length > 0 ? { written } : {}),
    ...(missingInputs.length > 0 ? { missingInputs } : {}),
  };
}

/**
 * The environment variables a string refers to, in any provider's syntax
 * (`${VAR}`, `${VAR:-default}`, `${env:VAR}`, `$VAR`), once each: what an
 * expansion of it may have copied from the environment.
 */
export function referencedVariables(template: string): string[] {
  const names = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) {
    const groups = match.groups as PlaceholderGroups | undefined;
    const name = groups?.envName ?? groups?.name ?? groups?.bare;
    if (name !== undefined) names.add(name);
  }
  return [...names];
}

function pathSeparator(options: InterpolationOptions): string {
  return (options.platform ?? process.platform) === "win32" ? "\\" : "/";
}

function predefinedVariable(name: string, options: InterpolationOptions): string | undefined {
  switch (name) {
    case "workspaceFolder":
      return options.cwd;
    case "workspaceFolderBasename":
      return options.cwd === undefined ? undefined : options.cwd.split(/[\\/]/).filter(Boolean).pop();
    case "userHome":
      return options.homeDir;
    case "pathSeparator":
      return pathSeparator(options);
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
    const id = match.groups?.inputId;
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
 * config that take them: `command`, `args`, `env`, `url`, `headers`, `cwd`,
 * and the OAuth `auth.clientId`, `auth.clientSecret`, `auth.scope` and
 * `auth.clientMetadataUrl` (Cursor's docs put `${env:…}` in its `auth`
 * block). Fields of the wrong shape are left for validation to report. Returns a new object; `config` is not changed.
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
    for (const variable of result.missing) {
      missing.push({ variable, field, placeholder: result.written?.[variable] ?? `\${${variable}}` });
    }
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
  if (isPlainObject(out.auth)) {
    const auth: Record<string, unknown> = { ...out.auth };
    for (const key of ["clientId", "clientSecret", "scope", "clientMetadataUrl"] as const) {
      const value = auth[key];
      if (typeof value === "string") auth[key] = await expand(value, `auth.${key}`);
    }
    out.auth = auth;
  }
  return missingInputs.length > 0 ? { config: out, missing, missingInputs } : { config: out, missing };
}
