/** A version: `1.2`, `v20.11.0`, `1.2.3-beta.1`, `2026.8.31`. */
const VERSION = /^v?\d+(?:\.\d+)+(?:[-+][0-9A-Za-z.-]+)?$/;

/** An npm spec with a version or tag: `pkg@1.2`, `@scope/pkg@^1.2.3`, `pkg@latest`. */
const NPM_SPEC = /^(@[^@\s/]+\/[^@\s/]+|[^@\s/:]+)@[^@\s/]+$/;

/** A Python requirement with a version: `pkg==1.2`, `pkg[extra]>=1.0,<2`. */
const PYTHON_SPEC = /^([A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?)\s*(?:===|==|>=|<=|~=|!=|>|<).+$/;

/** A container image with a tag or digest: `ghcr.io/org/image:1.2`, `image@sha256:…`; not `host:8080`. */
const IMAGE =
  /^([a-z0-9][a-z0-9._-]*(?:\/[a-z0-9][a-z0-9._-]*)*)(?::([\w][\w.-]{0,127}))?(@sha256:[a-f0-9]{64})?$/;

/** A path segment ending in a version: `pkg-1.2.3`, `node-v20.1.0`, `python3.12`. */
const VERSIONED_NAME = /^(.+?)[-_]v?\d+(?:\.\d+)+(?:[-+][0-9A-Za-z.-]+)?$|^(.*[A-Za-z])\d+(?:\.\d+)+$/;

function withoutImageTag(word: string): string | undefined {
  const match = IMAGE.exec(word);
  if (!match?.[1]) return undefined;
  const [, name, tag, digest] = match;
  // A port (`localhost:8080`) is digits only; a tag has a letter or a dot.
  if (digest) return name;
  if (tag && /[A-Za-z.]/.test(tag)) return name;
  return undefined;
}

/** One path segment, or a word without `/`, without its version. */
function segmentWithoutVersion(segment: string): string {
  if (VERSION.test(segment)) return "*";
  const npm = NPM_SPEC.exec(segment)?.[1];
  if (npm) return npm;
  const python = PYTHON_SPEC.exec(segment)?.[1];
  if (python) return python;
  const image = withoutImageTag(segment);
  if (image !== undefined) return image;
  const versioned = VERSIONED_NAME.exec(segment);
  return versioned?.[1] ?? versioned?.[2] ?? segment;
}

/**
 * `word` (a command, an argument, a URL) without what names a version: an
 * npm spec's `@1.2` or `@latest`, a Python requirement's `==1.2`, an image's
 * `:tag` or digest, a version alone (`1.2.3` → `*`), and in a path each
 * segment's (`/opt/node-v20.1.0/bin` → `/opt/node/bin`, `…/v20.11.0/…` →
 * `…/*\/…`); `--flag=value` keeps its flag. A URL keeps its origin and path:
 * credentials, query and fragment go. So upgrading a server keeps what it
 * runs, and anything else does not.
 *
 * @example withoutVersion("@playwright/mcp@0.0.86") // "@playwright/mcp"
 */
export function withoutVersion(word: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(word)) {
    try {
      const url = new URL(word);
      return `${url.protocol}//${url.host}${url.pathname}`;
    } catch {
      return word;
    }
  }
  const flag = /^(--?[A-Za-z0-9][\w-]*=)(.*)$/.exec(word);
  if (flag?.[1] !== undefined && flag[2] !== undefined) return `${flag[1]}${withoutVersion(flag[2])}`;
  // A scoped npm spec has one `/` of its own; other words with `/` are paths.
  if (NPM_SPEC.test(word) && word.startsWith("@")) return segmentWithoutVersion(word);
  if (!word.includes("/")) return segmentWithoutVersion(word);
  return word
    .split("/")
    .map((segment) =>
      segment === "" || segment === "." || segment === ".." ? segment : segmentWithoutVersion(segment),
    )
    .join("/");
}
