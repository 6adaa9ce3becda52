// Bundles the panel into the one file Home Assistant serves. Deterministic: the same sources
// and lock file give the same bytes (tests compare the committed bundle with a fresh build).
//   node build.mjs [--outfile PATH]
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const at = args.indexOf("--outfile");
const outfile = at >= 0 ? path.resolve(args[at + 1]) : path.join(
  here, "..", "custom_components", "context_retrieval", "frontend", "context-retrieval-panel.js");

await build({
  absWorkingDir: here,
  entryPoints: ["src/main.ts"],
  bundle: true,
  format: "esm",
  target: "es2021",
  minify: true,
  legalComments: "eof",
  charset: "utf8",
  sourcemap: false,
  logLevel: "warning",
  outfile,
});
