// "node:fs" plus a `globSync` for Node < 22 (see node20-glob-sync.mjs). Enough
// of Node 22's for the conformance suite: `*`, `?`, `**` segments, `{a,b}`, and
// the `cwd` and `exclude` (function) options; returns paths relative to cwd.
import fs from "node:fs";
import path from "node:path";

export * from "node:fs";
export default fs;

function segmentRegExp(segment) {
  let source = "";
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i];
    if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "{") {
      const end = segment.indexOf("}", i);
      if (end === -1) source += "\\{";
      else {
        const options = segment.slice(i + 1, end).split(",");
        source += `(?:${options.map((option) => option.replace(/[.+^$()|[\]\\]/g, "\\$&").replaceAll("*", "[^/]*")).join("|")})`;
        i = end;
      }
    } else source += char.replace(/[.+^$()|[\]\\{}]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

function match(parts, segments) {
  if (parts.length === 0) return segments.length === 0;
  const [part, ...rest] = parts;
  if (part === "**") {
    for (let skip = 0; skip <= segments.length; skip++) {
      if (match(rest, segments.slice(skip))) return true;
    }
    return false;
  }
  return segments.length > 0 && segmentRegExp(part).test(segments[0]) && match(rest, segments.slice(1));
}

function walk(root, relative, out) {
  let entries;
  try {
    entries = fs.readdirSync(path.join(root, relative), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    out.push(child);
    if (entry.isDirectory()) walk(root, child, out);
  }
}

/** Paths under `options.cwd` (default process.cwd()) matching `pattern` (a string or an array of them). */
export const globSync =
  fs.globSync ??
  function globSync(pattern, options = {}) {
    const cwd = options.cwd ? String(options.cwd) : process.cwd();
    const patterns = (Array.isArray(pattern) ? pattern : [pattern]).map((p) =>
      p
        .replaceAll("\\", "/")
        .split("/")
        .filter((part) => part !== "" && part !== "."),
    );
    const all = [];
    walk(cwd, "", all);
    return all.filter((file) => {
      if (typeof options.exclude === "function" && options.exclude(file)) return false;
      const segments = file.split("/");
      return patterns.some((parts) => match(parts, segments));
    });
  };
