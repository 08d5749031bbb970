import { openInBrowser } from "@mcp-rt/client";
import { describe, expect, it } from "vitest";

describe("openInBrowser (the default oauth.openUrl)", () => {
  const url = "https://auth.example.com/authorize?client_id=abc&state=xyz";

  it.each([
    ["over SSH", { SSH_CONNECTION: "10.0.0.1 5555 10.0.0.2 22", DISPLAY: ":0" }],
    ["on a Linux box without a display", {}],
  ])("%s: shows the URL instead of opening a browser", async (_, env) => {
    if (process.platform !== "linux" && !("SSH_CONNECTION" in env)) return;
    let shown = "";
    await openInBrowser(url, { env, write: (text) => (shown += text) });
    expect(shown).toBe(`\nTo sign in, open this address in a browser:\n\n  ${url}\n\n`);
  });
});
