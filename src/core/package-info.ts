// What the package says about itself, read from its package.json, so that the version is written
// once: the health answer, the OpenAPI document and the webhook User-Agent all show this one.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

/** The package's folder: this file is src/core/ in the repository, dist/src/core/ once built. */
export const PACKAGE_ROOT = path.resolve(path.dirname(here), '..', '..', here.includes(`${path.sep}dist${path.sep}`) ? '..' : '.');

export const VERSION: string = (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
