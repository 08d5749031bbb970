import {
  checkElicitationContent,
  type ElicitationHandler,
  type MCPElicitationCall,
  type MCPElicitationField,
  type MCPElicitationRequest,
  type MCPElicitationResult,
  type MCPElicitationSchema,
  openInBrowser,
} from "@mcp-rt/session";
import type { Output } from "./output.js";
import { terminalSafe } from "./terminal-text.js";
import { isAbortError } from "./tool-runner.js";

/** What the agent does when a server asks the user for input (`--elicitation`). */
export type ElicitationMode = "ask" | "accept-defaults" | "decline";

/** Asks one question on the terminal; rejects with an `AbortError` on Ctrl-C. */
export interface QuestionAsker {
  ask(prompt: string): Promise<string>;
}

/** Options of {@link createElicitationHandler}. */
export interface ElicitationHandlerOptions {
  mode: ElicitationMode;
  output: Output;
  /** The REPL's asker while it runs on a terminal; `undefined` otherwise (`--exec`, a pipe). */
  asker: () => QuestionAsker | undefined;
  /** Opens a URL the user agreed to open. @default openInBrowser */
  openUrl?: (url: string) => Promise<void>;
}

/** `, while running its tool "execute_sql"`: the call a question belongs to, when known. */
function during(call: MCPElicitationCall | undefined): string {
  if (!call) return "";
  const name = terminalSafe(call.name);
  if (call.method === "tools/call") return `, while running its tool "${name}",`;
  if (call.method === "prompts/get") return `, while getting its prompt "${name}",`;
  return `, while reading ${name},`;
}

/** How a field is called on screen. */
function label(name: string, field: MCPElicitationField): string {
  return field.title ?? name;
}

/** The choices of an enum field (single or multiple), with their display names. */
function choicesOf(field: MCPElicitationField): Array<{ value: string; title: string }> | undefined {
  const source = field.type === "array" ? field.items : field;
  if (!source) return undefined;
  const options =
    "anyOf" in source && Array.isArray(source.anyOf)
      ? source.anyOf
      : "oneOf" in source
        ? source.oneOf
        : undefined;
  if (Array.isArray(options)) {
    return options.map((option) => ({
      value: String(option.const),
      title: option.title ?? String(option.const),
    }));
  }
  if (Array.isArray(source.enum)) {
    const names = "enumNames" in source && Array.isArray(source.enumNames) ? source.enumNames : [];
    return source.enum.map((value, index) => ({
      value: String(value),
      title: String(names[index] ?? value),
    }));
  }
  return undefined;
}

/** The question for one field: its name, description, choices and default. */
function question(name: string, field: MCPElicitationField, required: boolean): string {
  const parts = [`  ${label(name, field)}${required ? " (required)" : ""}`];
  if (field.description) parts.push(` — ${field.description}`);
  const choices = choicesOf(field);
  if (choices) {
    const list = choices.map((choice, index) => `${index + 1}) ${choice.title}`).join("  ");
    parts.push(`\n    ${field.type === "array" ? "choose any, comma-separated" : "choose one"}: ${list}`);
  } else if (field.type === "boolean") {
    parts.push(" [y/n]");
  }
  if (field.default !== undefined)
    parts.push(
      ` [default: ${Array.isArray(field.default) ? field.default.join(", ") : String(field.default)}]`,
    );
  return `${parts.join("")}\n  › `;
}

/** The typed answer as the field's type; a string saying what is wrong otherwise. */
function parseAnswer(text: string, field: MCPElicitationField): { value: unknown } | { problem: string } {
  const choices = choicesOf(field);
  const pick = (word: string): string | undefined => {
    const index = Number(word);
    if (choices && Number.isInteger(index) && index >= 1 && index <= choices.length)
      return choices[index - 1]?.value;
    return choices?.find((choice) => choice.value === word || choice.title === word)?.value;
  };
  switch (field.type) {
    case "boolean": {
      if (/^(y|yes|true)$/i.test(text)) return { value: true };
      if (/^(n|no|false)$/i.test(text)) return { value: false };
      return { problem: "answer y or n" };
    }
    case "number":
    case "integer": {
      const value = Number(text);
      if (text === "" || Number.isNaN(value)) return { problem: "give a number" };
      if (field.type === "integer" && !Number.isInteger(value)) return { problem: "give a whole number" };
      return { value };
    }
    case "array": {
      const picked = text
        .split(",")
        .map((word) => word.trim())
        .filter(Boolean)
        .map(pick);
      if (picked.some((value) => value === undefined)) return { problem: "pick from the numbered choices" };
      return { value: picked };
    }
    default: {
      if (!choices) return { value: text };
      const value = pick(text);
      return value === undefined ? { problem: "pick one of the numbered choices" } : { value };
    }
  }
}

/**
 * The boolean field of a confirmation, when the form is one: a form without
 * fields, or whose only field is a boolean, is how a server asks "are you
 * sure?" (a DROP, a deletion, a cost). `null` for a form without fields.
 */
function confirmation(schema: MCPElicitationSchema | undefined): { field: string | null } | undefined {
  const fields = Object.entries(schema?.properties ?? {});
  if (fields.length === 0) return { field: null };
  const [only] = fields;
  if (fields.length === 1 && only && only[1].type === "boolean") return { field: only[0] };
  return undefined;
}

/** Asks each field in turn until its answer fits; Enter on an empty line takes the default (or skips an optional field). */
async function fillForm(
  schema: MCPElicitationSchema,
  asker: QuestionAsker,
  output: Output,
): Promise<Record<string, unknown>> {
  const content: Record<string, unknown> = {};
  const required = new Set(schema.required ?? []);
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    for (;;) {
      // The form is the server's text: shown only through terminalSafe, like everything a server wrote.
      const text = (await asker.ask(terminalSafe(question(name, field, required.has(name))))).trim();
      if (text === "") {
        if (field.default !== undefined) {
          content[name] = field.default;
          break;
        }
        if (!required.has(name)) break;
        output.write("notice", `  ${label(name, field)} is required.`, {});
        continue;
      }
      const parsed = parseAnswer(text, field);
      const problem =
        "problem" in parsed
          ? parsed.problem
          : checkElicitationContent(
              { type: "object", properties: { [name]: field } } as MCPElicitationSchema,
              { [name]: parsed.value },
            );
      if (problem === undefined && "value" in parsed) {
        content[name] = parsed.value;
        break;
      }
      output.write("notice", `  ${problem}; try again (Ctrl-C declines).`, {});
    }
  }
  return content;
}

/**
 * The agent's answer to `elicitation/create`. On a terminal (`ask`): the
 * server's message, then each field asked in turn (choices numbered,
 * defaults shown, Enter takes the default), Ctrl-C declines; a confirmation
 * (a form without fields, or with one boolean field) is asked as `Accept?
 * [y/N]`, declined on Enter; a URL is shown with the server that asks, and
 * opened when the user agrees. Without a terminal (`--exec`, a pipe) it
 * declines, unless `--elicitation accept-defaults`, which accepts a form
 * with its defaults when they fill it, never a confirmation.
 */
export function createElicitationHandler(options: ElicitationHandlerOptions): ElicitationHandler {
  const { output, mode } = options;
  const openUrl =
    options.openUrl ??
    ((url: string) =>
      openInBrowser(url, {
        write: () =>
          output.write("notice", `  No browser can be opened here; open this address by hand:\n  ${url}`, {}),
      }));
  // One question at a time: a second request (another server, or a parallel call) waits its turn
  // instead of taking over the prompt of the first.
  let turn: Promise<unknown> = Promise.resolve();
  return (request: MCPElicitationRequest): Promise<MCPElicitationResult> => {
    const answer = turn.then(() => answerOne(request));
    turn = answer.catch(() => undefined);
    return answer;
  };

  async function answerOne(request: MCPElicitationRequest): Promise<MCPElicitationResult> {
    const who = `MCP server "${request.server}"${during(request.call)}`;
    const data = {
      event: "elicitation",
      server: request.server,
      mode: request.mode,
      ...(request.call ? { call: request.call } : {}),
    };
    const asker = mode === "ask" ? options.asker() : undefined;
    const schema = request.requestedSchema;
    const confirm = request.mode === "form" ? confirmation(schema) : undefined;
    if (!asker) {
      const fillable =
        request.mode === "form" &&
        (schema?.required ?? []).every((name) => schema?.properties[name]?.default !== undefined);
      // A confirmation is a question for a person: no default answers it, whatever it says.
      const accept = mode === "accept-defaults" && fillable && !confirm;
      const why =
        mode === "decline"
          ? "--elicitation decline"
          : confirm
            ? "a confirmation needs a person: no terminal to ask on"
            : "no terminal to ask on";
      const hint = confirm ? "" : "; --elicitation accept-defaults accepts a form's defaults";
      output.write(
        "notice",
        `${who} asked: ${request.message}\n  ${accept ? "accepted with the form's defaults (--elicitation accept-defaults)" : `declined (${why}${hint})`}`,
        { ...data, action: accept ? "accept" : "decline" },
      );
      return accept ? { action: "accept", content: {} } : { action: "decline" };
    }
    try {
      if (request.mode === "url") {
        output.write(
          "notice",
          `${who} asks you to open a page:\n  ${request.message}\n  ${request.url ?? ""}`,
          data,
        );
        const answer = (await asker.ask("  Open it in your browser? [y/N] ")).trim();
        if (!/^(y|yes)$/i.test(answer)) return { action: "decline" };
        await openUrl(request.url ?? "");
        return { action: "accept" };
      }
      if (confirm) {
        output.write("notice", `${who} asks you to confirm:\n  ${request.message}`, data);
        const answer = (await asker.ask("  Accept? [y/N] ")).trim();
        if (!/^(y|yes)$/i.test(answer)) {
          output.write("notice", `  declined; nothing was sent to ${request.server}`, {
            ...data,
            action: "decline",
          });
          return { action: "decline" };
        }
        output.write("notice", `  accepted; sent to ${request.server}`, { ...data, action: "accept" });
        return { action: "accept", content: confirm.field === null ? {} : { [confirm.field]: true } };
      }
      output.write(
        "notice",
        `${who} asks: ${request.message}\n  (Enter takes the default; Ctrl-C declines)`,
        data,
      );
      const content = await fillForm(
        request.requestedSchema ?? { type: "object", properties: {} },
        asker,
        output,
      );
      output.write("notice", `  sent to ${request.server}`, { ...data, action: "accept" });
      return { action: "accept", content: content as NonNullable<MCPElicitationResult["content"]> };
    } catch (error) {
      if (!isAbortError(error)) throw error;
      output.write("notice", `  declined; nothing was sent to ${request.server}`, {
        ...data,
        action: "decline",
      });
      return { action: "decline" };
    }
  }
}
