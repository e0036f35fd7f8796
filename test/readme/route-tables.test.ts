// The route tables of the docs are the route table of the code: docs/control-api.md lists every route of the
// control API and docs/api-v2.md every v2 route, each once, and neither lists a route the emulator does not
// serve. Rows read `| \`METHOD /path\` | what it does |`, as scripts/readme-control.ts prints them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRoutes } from '../../src/http/routes.js';

const docs = path.join(import.meta.dirname, '..', '..', 'docs');

function tableRoutes(file: string): string[] {
  const text = readFileSync(path.join(docs, file), 'utf8');
  return [...text.matchAll(/^\| `([A-Z]+) (\/\S*)` \|/gm)].map((m) => `${m[1]} ${m[2]}`);
}

function servedRoutes(api: string): string[] {
  return allRoutes('http://127.0.0.1:4700')
    .filter((r) => r.api === api)
    .map((r) => `${r.method.toUpperCase()} ${r.path}`);
}

describe.each([
  ['control', 'control-api.md'],
  ['v2', 'api-v2.md'],
])('the %s routes in docs/%s', (api, file) => {
  const documented = tableRoutes(file);
  const served = servedRoutes(api);

  it('has a row for every route the emulator serves', () => {
    expect(served.length).toBeGreaterThan(0);
    expect(served.filter((r) => !documented.includes(r))).toEqual([]);
  });

  it('has no row for a route the emulator does not serve, and no row twice', () => {
    expect(documented.filter((r) => !served.includes(r))).toEqual([]);
    expect(new Set(documented).size).toBe(documented.length);
  });
});
