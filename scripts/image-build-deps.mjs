// The repository's image (Dockerfile) runs this in its build stage, before it installs anything:
// it leaves in package.json the production dependencies and, of the development ones, only the
// tools the image's build runs (scripts/build.mjs and scripts/build-ui.mjs: esbuild, and what the
// dashboard bundles). The optional peer (testcontainers, for projects that start the image) goes
// too: the image never runs that entry point, and npm would otherwise install it as a peer and
// keep it through `npm prune --omit=dev`. The install that follows takes every version from
// package-lock.json, as `npm ci` would, and fetches and unpacks a fraction of the packages: the
// test, lint and benchmark tools, the web SDKs and their UI kits are not needed to build the image.
//
//   node scripts/image-build-deps.mjs [package.json]
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** The development dependencies the image's build needs: the bundler, and the dashboard's packages. */
const BUILD_TOOLS = ['esbuild', 'preact', 'htm', 'hls.js'];

/** `manifest` (package.json's contents) as the image's build installs it. */
function imageBuildManifest(manifest) {
  const missing = BUILD_TOOLS.filter((name) => !manifest.devDependencies?.[name]);
  if (missing.length > 0) throw new Error(`image-build-deps: ${missing.join(', ')} not among the development dependencies`);
  const { peerDependencies: _peers, peerDependenciesMeta: _meta, ...rest } = manifest;
  return { ...rest, devDependencies: Object.fromEntries(BUILD_TOOLS.map((name) => [name, manifest.devDependencies[name]])) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? 'package.json';
  writeFileSync(file, `${JSON.stringify(imageBuildManifest(JSON.parse(readFileSync(file, 'utf8'))), null, 2)}\n`);
}
