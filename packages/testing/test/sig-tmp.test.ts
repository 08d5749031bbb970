import { it } from "vitest";
import { exportedSignatures } from "../../../test-support/exported-signatures.js";

it("list", () => {
  const s = exportedSignatures(`/work/wt/h-faces-lower/packages/cache`);
  console.log(s.map((x) => `${x.name}/${x.params.length}`).join(" "));
});
