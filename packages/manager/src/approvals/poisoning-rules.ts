/**
 * How sure a rule is that text was written to steer the model against the
 * user: `"hold"` rules keep the tool from the model (under `poisoning:
 * "hold"`), `"warn"` rules only report it.
 */
export type MCPPoisoningStrength = "hold" | "warn";

/** What one rule found in one text: where it starts, what it matched (shown with invisibles spelled out), and why it matters. */
export interface RuleMatch {
  /** Offset of the match in the text. */
  index: number;
  /** The matched text as a person can read it (invisible characters spelled out as `<U+…>`, tag characters decoded). */
  excerpt: string;
  /** Why this is a sign of poisoning, in one sentence. */
  reason: string;
}

/** One rule of the offline poisoning check. */
export interface PoisoningRule {
  /** Its id, as findings and the corpus name it: `unicode-tags`, `secret-files`, … */
  readonly id: string;
  readonly strength: MCPPoisoningStrength;
  /** What it looks for, for the docs and `/mcp review`. */
  readonly summary: string;
  /** Every match in `text`; `context` says what else the server offers (its other texts are not needed). */
  find(text: string, context: RuleContext): RuleMatch[];
}

/** What a rule may know besides the text: the names of the tools of other servers. */
export interface RuleContext {
  /** Distinctive tool names of the other servers of the session (never the server's own). */
  otherTools: ReadonlySet<string>;
}

const hex = (code: number): string => `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * `text` with every invisible or control character spelled out (`<U+200B>`),
 * so that a person sees what the model reads: how server text is shown in a
 * review.
 *
 * @example visibleText("a\u202Eb") // "a<U+202E>b"
 */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE, (char) => `<${hex(char.codePointAt(0) ?? 0)}>`);
}

/** Characters a person does not see: controls, format characters, tags, variation selectors. */
const INVISIBLE = /[\p{Cc}\p{Cf}\u{E0000}-\u{E007F}]/gu;

const TAG_RUN = /[\u{E0000}-\u{E007F}]+/gu;
const BIDI = /[\u202A-\u202E\u2066-\u2069]/gu;
const ZERO_WIDTH = /[\u200B-\u200D\u2060\u2062-\u2064\uFEFF\u180E]/gu;

/** Scripts that join or break letters with ZWJ/ZWNJ as part of their spelling. */
const JOINING_SCRIPT =
  /[\p{sc=Arabic}\p{sc=Syriac}\p{sc=Nko}\p{sc=Mongolian}\p{sc=Devanagari}\p{sc=Bengali}\p{sc=Gurmukhi}\p{sc=Gujarati}\p{sc=Oriya}\p{sc=Tamil}\p{sc=Telugu}\p{sc=Kannada}\p{sc=Malayalam}\p{sc=Sinhala}\p{sc=Khmer}\p{sc=Myanmar}\p{sc=Tibetan}\p{sc=Thai}\p{sc=Lao}]/u;
const PICTOGRAPH = /\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}]|\uFE0F|\u20E3/u;

/** The whole line around `index`, cut to about 120 characters, invisibles spelled out. */
function around(text: string, index: number, length: number): string {
  const start = Math.max(0, index - 40);
  const end = Math.min(text.length, index + length + 60);
  const cut = text.slice(start, end).replace(/\s+/g, " ").trim();
  return `${start > 0 ? "…" : ""}${visibleText(cut)}${end < text.length ? "…" : ""}`;
}

/** Every match of `pattern` (global) in `text`, as rule matches with `reason`. */
function matchesOf(text: string, pattern: RegExp, reason: (match: RegExpExecArray) => string): RuleMatch[] {
  const found: RuleMatch[] = [];
  for (const match of text.matchAll(pattern)) {
    const index = match.index ?? 0;
    found.push({ index, excerpt: around(text, index, match[0].length), reason: reason(match) });
  }
  return found;
}

const IGNORE_INSTRUCTIONS = new RegExp(
  [
    String.raw`\b(?:ignore|disregard|forget)\s+(?:\w+\s+){0,3}?(?:previous|prior|above|earlier|preceding|former|original|system|existing|safety)\s+(?:\w+\s+){0,2}?(?:instructions?|prompts?|rules|directions|guidelines|guardrails|policies)\b`,
    String.raw`\b(?:ignore|disregard|forget)\s+(?:all|everything)\s+(?:you\s+(?:were|have\s+been)\s+told|(?:said|written)\s+(?:above|before))`,
    String.raw`\bnew\s+(?:system\s+)?instructions\s*:`,
    String.raw`\byou\s+are\s+no\s+longer\b`,
  ].join("|"),
  "gi",
);

const CONCEAL = new RegExp(
  [
    String.raw`\b(?:do\s+not|don['’]t|never|must\s+not|should\s+not|shouldn['’]t)(?:\s+\w+){0,2}?\s+(?:tell|inform|mention|reveal|disclose|notify|alert|warn)(?:\s+\w+){0,3}?\s+(?:to\s+)?(?:the\s+)?(?:user|human|operator)\b`,
    String.raw`\bwithout\s+(?:telling|informing|notifying|alerting|asking|warning|letting)\s+(?:the\s+)?(?:user|human)\b`,
    String.raw`\b(?:keep|hide)\s+(?:this|it|these|that)(?:\s+\w+){0,2}?\s+(?:secret\s+|hidden\s+)?from\s+(?:the\s+)?(?:user|human)\b`,
    String.raw`\bthe\s+(?:user|human)\s+(?:must|should|will|need)\s+(?:not|never)\s+(?:know|see|notice|find\s+out|be\s+told)\b`,
    String.raw`\b(?:do\s+not|don['’]t|never)\s+(?:mention|reveal|disclose)\s+(?:this|these|that)\s+(?:instruction|step|note|tool|requirement)s?\b`,
  ].join("|"),
  "gi",
);

/** Tags a model is trained to obey, or that fake a turn of the conversation. */
const MODEL_TAGS =
  /<\s*\/?\s*(?:important|system|system[-_ ]?(?:prompt|message|reminder|instructions?)|instructions?|critical|admin|override|priority|secret|hidden|mandatory|must|assistant|ai[-_ ]?(?:instructions?|only))\b[^<>]{0,80}>|<\|(?:im_start|im_end|system|endoftext)\|>|\[\/?(?:INST|SYS|SYSTEM)\]|<<\/?SYS>>/gi;

const SECRET_FILES =
  /(?<![A-Za-z0-9/-])(?:~\/)?(?:\.ssh\b(?:\/[\w.-]+)?|id_(?:rsa|dsa|ecdsa|ed25519)(?:\.pub)?\b|\.env(?:\.[\w-]+)?\b(?![\w-])|\.aws\/credentials|\.npmrc\b|\.netrc\b|\.pgpass\b|\.git-credentials\b|\.kube\/config\b|\.docker\/config\.json|\.gnupg\b|\.config\/gh\b|\/etc\/(?:passwd|shadow)\b|(?:mcp|claude_desktop_config|credentials)\.json\b|\.cursor\/mcp\.json|wallet\.dat\b)/gi;

const EXFILTRATION = new RegExp(
  [
    String.raw`\b(?:send|post|upload|forward|transmit|exfiltrate|leak|copy|email)(?:\s+\w+){0,6}?\s+(?:to|at|into)\s+(?:https?:\/\/|(?:this|that|the\s+following|an?\s+(?:external|remote|outside))\s+(?:url|endpoint|server|address|webhook|email)|[\w.+-]+@[\w-]+\.[\w.]+)`,
    String.raw`\bexfiltrat\w*`,
    String.raw`https?:\/\/[^\s"'<>]*(?:webhook\.site|requestbin|pipedream\.net|ngrok(?:-free)?\.(?:io|app)|burpcollaborator|interact\.sh|oast\.\w+)`,
    String.raw`\b(?:pass|put|include|embed|add|append|attach|send)\s+(?:it|them|its\s+contents?|the\s+(?:contents?|file|key|keys|data|conversation(?:\s+history)?|chat\s+history|previous\s+messages|system\s+prompt))(?:\s+\w+){0,4}?\s+(?:as|in|into|via)\s+(?:an?\s+|the\s+)?(?:['"\x60]?[\w-]+['"\x60]?\s+)?(?:argument|parameter|param|field|input)\b`,
    String.raw`\b(?:conversation|chat)\s+history\b`,
  ].join("|"),
  "gi",
);

const CROSS_TOOL = new RegExp(
  [
    String.raw`\b(?:before|after|whenever|every\s+time|each\s+time|instead\s+of)\s+(?:you\s+)?(?:use|using|call|calling|invoke|invoking|run|running|execute|executing)\s+(?:any|all|every|another|other|the\s+other|a\s+different)\s+(?:\w+\s+)?tools?\b`,
    String.raw`\b(?:all|any|every)\s+other\s+(?:\w+\s+)?tools?\b`,
    String.raw`\bother\s+(?:mcp\s+)?servers?['’]?s?\s+tools?\b`,
    String.raw`\b(?:do\s+not|don['’]t|never)\s+(?:use|call|invoke)\s+(?:any\s+)?other\s+tools?\b`,
  ].join("|"),
  "gi",
);

/** The rules, strong ones first. Each finding names its rule by `id`. */
export const POISONING_RULES: readonly PoisoningRule[] = [
  {
    id: "unicode-tags",
    strength: "hold",
    summary: "Unicode tag characters (U+E0000–E007F): text the user cannot see and the model reads",
    find: (text) =>
      matchesOf(text, TAG_RUN, (match) => {
        const hidden = [...match[0]]
          .map((char) => (char.codePointAt(0) ?? 0) - 0xe0000)
          .filter((code) => code >= 0x20 && code < 0x7f)
          .map((code) => String.fromCharCode(code))
          .join("");
        return `invisible Unicode tag characters${hidden ? ` spelling "${hidden.slice(0, 120)}"` : ""}: the user cannot see them, the model reads them`;
      }),
  },
  {
    id: "bidi-controls",
    strength: "hold",
    summary:
      "bidirectional overrides and isolates (U+202A–202E, U+2066–2069): text shown in another order than the model reads it",
    find: (text) =>
      matchesOf(
        text,
        BIDI,
        (match) =>
          `a bidirectional control character (${hex(match[0].codePointAt(0) ?? 0)}): what the user sees is reordered, the model reads the original order`,
      ),
  },
  {
    id: "model-instruction-tags",
    strength: "hold",
    summary: "tags aimed at the model (<IMPORTANT>, <system>, [INST], <|im_start|>)",
    find: (text) =>
      matchesOf(
        text,
        MODEL_TAGS,
        (match) =>
          `"${match[0].slice(0, 40)}" is a tag aimed at the model, a known way to smuggle orders into a tool's text`,
      ),
  },
  {
    id: "ignore-instructions",
    strength: "hold",
    summary: 'orders to set the model\'s instructions aside ("ignore previous instructions")',
    find: (text) =>
      matchesOf(text, IGNORE_INSTRUCTIONS, () => "tells the model to set its instructions aside"),
  },
  {
    id: "conceal-from-user",
    strength: "hold",
    summary: 'orders to keep something from the user ("do not tell the user")',
    find: (text) => matchesOf(text, CONCEAL, () => "tells the model to keep something from the user"),
  },
  {
    id: "zero-width",
    strength: "warn",
    summary: "zero-width characters outside emoji sequences and scripts that need them",
    find: (text) => {
      const found: RuleMatch[] = [];
      for (const match of text.matchAll(ZERO_WIDTH)) {
        const index = match.index ?? 0;
        const char = match[0];
        const before = [...text.slice(Math.max(0, index - 2), index)].at(-1) ?? "";
        const after = [...text.slice(index + 1, index + 3)][0] ?? "";
        // ZWJ joins emoji (👩‍💻); ZWJ and ZWNJ shape Persian, Indic and other scripts.
        if (char === "\u200D" && PICTOGRAPH.test(before) && PICTOGRAPH.test(after)) continue;
        if (
          (char === "\u200C" || char === "\u200D") &&
          (JOINING_SCRIPT.test(before) || JOINING_SCRIPT.test(after))
        )
          continue;
        // A byte-order mark at the very start is an editor's leftover.
        if (char === "\uFEFF" && index === 0) continue;
        found.push({
          index,
          excerpt: around(text, index, 1),
          reason: `a zero-width character (${hex(char.codePointAt(0) ?? 0)}) where no script needs one: it can hide or split words the user reads`,
        });
      }
      return found;
    },
  },
  {
    id: "other-tools",
    strength: "warn",
    summary: "references to other tools or servers (a tool that steers how others are used)",
    find: (text, context) => {
      const found = matchesOf(text, CROSS_TOOL, () => "speaks of how other tools are to be used");
      if (context.otherTools.size === 0) return found;
      for (const match of text.matchAll(/[A-Za-z][\w-]{3,}/g)) {
        if (!context.otherTools.has(match[0])) continue;
        const index = match.index ?? 0;
        found.push({
          index,
          excerpt: around(text, index, match[0].length),
          reason: `names "${match[0]}", a tool of another server`,
        });
      }
      return found;
    },
  },
  {
    id: "secret-files",
    strength: "warn",
    summary: "references to secret files and folders (.ssh, id_rsa, .env, cloud credentials)",
    find: (text) => matchesOf(text, SECRET_FILES, (match) => `names ${match[0]}, where secrets are kept`),
  },
  {
    id: "exfiltration",
    strength: "warn",
    summary: "asks to send data elsewhere (to a URL, an address, or smuggled in a parameter)",
    find: (text) => matchesOf(text, EXFILTRATION, () => "asks for data to be sent or carried somewhere else"),
  },
];
