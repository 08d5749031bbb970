// The bin runs the bundle's entry file through `vm.Script` with a V8 code cache
// (scripts/main-loader.cjs). A script made from an accepted cache has no dynamic import callback (V8
// keeps no host-defined options in its cache), so an `import()` in that file fails on every warm
// start: the build checks that none is left.
import { parseSync } from "rolldown/utils";

/**
 * Throws, naming each one, when the script `code` (of `fileName`) holds an `import()` expression.
 * @param {string} fileName
 * @param {string} code
 */
export function assertNoDynamicImport(fileName, code) {
  const { module, errors } = parseSync(fileName, code, { sourceType: "script" });
  if (errors.length > 0) throw new Error(`${fileName}: cannot parse it: ${errors[0].message}`);
  if (module.dynamicImports.length === 0) return;
  const found = module.dynamicImports.map(({ start, end }) => code.slice(start, end)).join(", ");
  throw new Error(
    `${fileName} holds ${found}: the bin runs it through a V8 code cache, where import() fails. ` +
      "Import the module statically, or from a module the bundler puts in a chunk of its own.",
  );
}
