/** Where a user fixes a setting, for a message: "in <the config file>" when it is known. */
export function inConfig(sourcePath: string | undefined): string {
  return sourcePath ? `in ${sourcePath}` : "in the server's config";
}
