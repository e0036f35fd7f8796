// What the package says about itself, read from its package.json, so that the version is written
// once: the health answer, the OpenAPI document and the webhook User-Agent all show this one.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's folder: the nearest one above this module that holds a package.json. This module
 * runs from src/core/ in the repository, from dist/src/core/ once compiled, and from dist/ inside
 * the bundled command line, so its depth below the package differs.
 */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    // Stryker disable next-line StringLiteral: never thrown: every way the emulator runs has a package.json above this module.
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PACKAGE_ROOT = packageRoot(path.dirname(fileURLToPath(import.meta.url)));

export const VERSION: string = (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
