// Prints a route table of the docs from the route table (src/http/routes.ts): the control API's for
// docs/control-api.md, or another API's (`v2` for docs/api-v2.md):
//   npx tsx scripts/readme-control.ts [control|v2|v1|media]
import { allRoutes } from '../src/http/routes.js';

const api = process.argv[2] ?? 'control';
const rows = allRoutes('http://127.0.0.1:4700')
  .filter((r) => r.api === api)
  .map((r) => `| \`${r.method.toUpperCase()} ${r.path}\` | ${r.summary.replace(/\|/g, '\\|')} |`);
process.stdout.write(['| Route | What it does |', '|---|---|', ...rows, ''].join('\n'));
