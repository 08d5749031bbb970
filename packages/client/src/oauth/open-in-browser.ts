/** Where {@link openInBrowser} writes the URL when it cannot open a browser. @default process.stderr */
export interface OpenInBrowserOptions {
  write?(text: string): void;
  /** The environment that tells a desktop session from SSH or a headless box. @default process.env */
  env?: Record<string, string | undefined>;
}

/**
 * The default `oauth.openUrl`: opens `url` in the user's browser with the
 * `open` package; over SSH, on a Linux box without a display, or when opening
 * fails, writes the URL to stderr for the user to open by hand. Never rejects.
 */
export async function openInBrowser(url: string, options: OpenInBrowserOptions = {}): Promise<void> {
  const env = options.env ?? process.env;
  const write = options.write ?? ((text: string) => void process.stderr.write(text));
  const remote = Boolean(env.SSH_CONNECTION || env.SSH_CLIENT || env.SSH_TTY);
  const headless = process.platform === "linux" && !env.DISPLAY && !env.WAYLAND_DISPLAY;
  if (!remote && !headless) {
    try {
      const { default: open } = await import("open");
      await open(url);
      return;
    } catch {
      // No launcher (xdg-open missing…): fall through to showing the URL.
    }
  }
  write(`\nTo sign in, open this address in a browser:\n\n  ${url}\n\n`);
}
