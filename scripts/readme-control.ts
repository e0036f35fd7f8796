// Prints the README's control API table from the route table (src/http/routes.ts):
//   npx tsx scripts/readme-control.ts
import { allRoutes } from '../src/http/routes.js';

const rows = allRoutes('http://127.0.0.1:4700')
  .filter((r) => r.api === 'control')
  .map((r) => `| \`${r.method.toUpperCase()} ${r.path}\` | ${r.summary.replace(/\|/g, '\\|')} |`);
process.stdout.write(['| Route | What it does |', '|---|---|', ...rows, ''].join('\n'));
