// Lint rules. The one rule that matters most here: nothing outside src/core/clock.ts and
// src/core/ids.ts may read the time or make randomness, so a seeded run is reproducible
// to the byte.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const ambient = [
  { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'Read time from the injected Clock (src/core/clock.ts).' },
  { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Read time from the injected Clock (src/core/clock.ts).' },
  { selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']", message: 'Use the injected IdGenerator (src/core/ids.ts).' },
  {
    selector: 'MemberExpression[property.name=/^(randomUUID|randomBytes|randomInt|getRandomValues|generateKeyPair|generateKeyPairSync)$/]',
    message: 'Use the injected IdGenerator (src/core/ids.ts).',
  },
  {
    selector: "CallExpression[callee.object.name='performance'][callee.property.name='now']",
    message: 'Read time from the injected Clock (src/core/clock.ts).',
  },
];
const ambientImports = {
  paths: [
    { name: 'nanoid', message: 'Use the injected IdGenerator (src/core/ids.ts).' },
    { name: 'uuid', message: 'Use the injected IdGenerator (src/core/ids.ts).' },
    {
      name: 'node:crypto',
      importNames: ['randomUUID', 'randomBytes', 'randomInt', 'getRandomValues', 'generateKeyPair', 'generateKeyPairSync'],
      message: 'Use the injected IdGenerator (src/core/ids.ts).',
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'fixtures/**', '.scratch/**', '.stryker-tmp/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Type-aware rules: a promise nobody awaits loses its rejection (and, in a test, lets the
    // test end before the work it started), so every promise is awaited, handled, or marked
    // `void` where fire-and-forget is meant. One program from tsconfig.json (which covers src,
    // test and bench) is faster here than the per-file project service.
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    // The dashboard runs in a browser: its own program (src/ui/app/tsconfig.json, DOM types).
    ignores: ['src/ui/app/**'],
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
  {
    files: ['src/ui/app/**/*.ts'],
    languageOptions: { parserOptions: { project: './src/ui/app/tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/core/clock.ts', 'src/core/ids.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...ambient],
      'no-restricted-imports': ['error', ambientImports],
    },
  },
);
