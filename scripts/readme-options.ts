// Prints the configuration table of docs/running.md from the one options table (src/config.ts):
//   npx tsx scripts/readme-options.ts
import { OPTIONS } from '../src/config.js';

const rows = OPTIONS.map((o) => `| \`${o.flag}\` | \`${o.env}\` | ${o.defaultText} | ${o.description} |`);
process.stdout.write(['| Flag | Environment variable | Default | Meaning |', '|---|---|---|---|', ...rows, ''].join('\n'));
