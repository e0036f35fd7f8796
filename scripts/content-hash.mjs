// The hash that tells the build whether its outputs are stale: the inputs' paths (relative to
// the project) and contents. Unlike mtimes, it survives a fresh clone or a checkout that touches
// every file. A file that is absent (package-lock.json is optional) is left out.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export function contentHash(root, files) {
  const hash = createHash('sha256');
  for (const file of files) {
    let content;
    try {
      content = readFileSync(file);
    } catch {
      continue;
    }
    hash.update(path.relative(root, file)).update('\0').update(content).update('\0');
  }
  return hash.digest('hex');
}
