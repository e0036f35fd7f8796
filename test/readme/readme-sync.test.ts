// The README stays true: its vitest example is the file that runs as a test and its first code block holds
// the two set-up commands; the configuration table of docs/running.md names every option.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPTIONS } from '../../src/config.js';

const root = path.join(import.meta.dirname, '..', '..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const running = readFileSync(path.join(root, 'docs', 'running.md'), 'utf8');

describe('README', () => {
  it('opens with the start command, then the test command', () => {
    const first = /```bash\n([\s\S]*?)```/.exec(readme)![1]!;
    const commands = first
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter(Boolean);
    expect(commands).toEqual(['npm ci && npm start', 'npm ci && npm test']);
  });

  it('shows the vitest example exactly as test/readme/vitest-example.test.ts runs it', () => {
    const example = readFileSync(path.join(root, 'test', 'readme', 'vitest-example.test.ts'), 'utf8');
    expect(readme).toContain('```ts\n' + example + '```');
  });
});

describe('docs/bad-network.md', () => {
  it('shows its end-to-end test exactly as test/readme/bad-network-example.test.ts runs it', () => {
    const page = readFileSync(path.join(root, 'docs', 'bad-network.md'), 'utf8');
    const example = readFileSync(path.join(root, 'test', 'readme', 'bad-network-example.test.ts'), 'utf8');
    expect(page).toContain('```ts\n' + example + '```');
  });
});

describe('docs/running.md', () => {
  it.each(OPTIONS.map((o) => [o.flag, o.env]))('documents %s / %s in the configuration table', (flag, env) => {
    expect(running).toMatch(new RegExp(`\\| \`${flag}\` \\| \`${env}\` \\|`));
  });
});
