/* global console */
// Applies the patches in this folder (made with patch-package: `npx patch-package <name>` after
// editing node_modules/<name>) to the installed dependencies they name. Run by `postinstall`, and by
// the images' builds, whose installs run no scripts (--ignore-scripts).
//
// patch-package applies patches to <its folder>/node_modules. In a checkout that is this package's
// folder; where the package is installed in a project, npm puts its dependencies next to it (the
// project's node_modules), where patch-package run from the package's folder would not find them.
// So it is run from the folder whose node_modules holds the patched dependency, found the way Node
// resolves it from here, with this folder as its patch folder.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);

/** The folder whose node_modules holds `name` as Node resolves it from the package, or null. */
function installedUnder(name) {
  for (let dir = root; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'node_modules', name, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}

const app = installedUnder('werift');
if (!app) {
  console.error('patches: werift is not installed; nothing to patch');
  process.exit(1);
}
const bin = createRequire(path.join(root, 'package.json')).resolve('patch-package/index.js');
const { status } = spawnSync(process.execPath, [bin, '--patch-dir', path.relative(app, here) || '.', '--error-on-fail'], { cwd: app, stdio: 'inherit' });
process.exit(status ?? 1);
