// One lint setup for the whole repository. Package boundaries (CONVENTIONS "Boundaries")
// and the ban on reading the environment outside config are enforced here, not by goodwill.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const envBan = [
  {
    selector: "MemberExpression[object.name='process'][property.name='env']",
    message: 'Read configuration only in apps/api/src/config.ts (CONVENTIONS: config).',
  },
  {
    selector: "MemberExpression[object.type='MetaProperty'][property.name='env']",
    message: 'Read import.meta.env only in apps/web/src/lib/env.ts.',
  },
];

const restrict = (patterns) => ['error', { patterns }];

const webDomainOnly = {
  group: ['@tenpo/api', '**/apps/api/**', '@tenpo/sandbox', '**/apps/sandbox/**', 'node:*'],
  message: 'web imports domain only',
};
/** A closed Mantine Modal still mounts its portal and scroll lock: ours draws it once opened. */
const webModal = {
  group: ['@mantine/core'],
  importNames: ['Modal'],
  message: "use Modal from '@/components/ui/modal' (drawn once it first opens; ADR 0087)",
};
/** Folders of apps/web/src as `@/name…` and as `../name…` from any depth. */
const webFolders = (names) =>
  names.flatMap((n) => [`@/${n}`, `@/${n}/**`, `**/../${n}`, `**/../${n}/**`]);
/**
 * A zone of apps/web/src: its files never import the folders `banned`, nor app/ (which
 * composes everything) nor test/ (whose helpers mount the app). Its tests may use those two:
 * they mount the providers to render what they test.
 */
const webZone = (folder, banned, message, more = []) => {
  const rule = (names) =>
    restrict([
      webDomainOnly,
      webModal,
      ...more,
      ...(names.length > 0 ? [{ group: webFolders(names), message }] : []),
    ]);
  return [
    {
      files: [`apps/web/src/${folder}/**/*.{ts,tsx}`],
      rules: { 'no-restricted-imports': rule([...banned, 'app', 'test']) },
    },
    {
      files: [`apps/web/src/${folder}/**/*.test.{ts,tsx}`],
      rules: { 'no-restricted-imports': rule(banned) },
    },
  ];
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-*/**',
      'data/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // No function over 200 lines, tests and benches included (issue 24 item 2, ADR 0080): a long
    // one is split by responsibility. Aim for 150 in review.
    rules: {
      'max-lines-per-function': ['error', { max: 200, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      'no-restricted-syntax': ['error', ...envBan],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/ban-ts-comment': [
        'error',
        { 'ts-ignore': 'allow-with-description', 'ts-expect-error': 'allow-with-description' },
      ],
    },
  },
  // A promise nobody awaits loses its rejection: typed linting (each file's own tsconfig via
  // the project service). Fire-and-forget says so with `void`. Sources only, not tests: type
  // information more than doubles the lint's time (ADR 0077).
  {
    files: [
      'apps/api/src/**/*.ts',
      'apps/web/src/**/*.{ts,tsx}',
      'apps/sandbox/src/**/*.ts',
      'packages/*/src/**/*.ts',
    ],
    ignores: ['**/*.test.{ts,tsx}', 'apps/web/src/test/**'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  // No import cycles in the sources: a cycle makes load order decide what is undefined.
  // The resolver reads each package's tsconfig, so web's `@/` alias is followed.
  {
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Without these, files that are not .js are never read for their imports.
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // Config modules are the only readers of the environment.
  {
    files: [
      'apps/api/src/config.ts',
      'apps/sandbox/src/main.ts',
      'apps/web/src/lib/env.ts',
      'scripts/**',
      'bench/**',
      'e2e/**',
      '**/vite.config.ts',
      '**/*.config.{js,ts,mjs}',
      '**/test/**',
      '**/*.test.ts',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  // packages/domain: zod only — nothing of Node, the DOM, React, Fastify or Kysely.
  {
    files: ['packages/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['node:*', 'fs', 'path', 'crypto'], message: 'domain is runtime-neutral' },
        {
          group: ['react', 'react-*', 'fastify', '@fastify/*', 'kysely', 'pg', 'better-sqlite3'],
          message: 'domain imports zod only',
        },
        { group: ['@tenpo/*', '**/apps/**'], message: 'domain imports no app' },
      ]),
    },
  },
  // api and web never import each other; the sandbox never imports our code but domain.
  {
    files: ['apps/api/**/*.ts'],
    ignores: ['apps/api/src/server.ts', 'apps/api/src/compose.ts', 'apps/api/test/**'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['@tenpo/web', '**/apps/web/**', '@tenpo/sandbox', '**/apps/sandbox/**'],
          message: 'api imports the sandbox only where the server is composed (src/compose.ts)',
        },
      ]),
    },
  },
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: [
      'apps/api/src/**/*.repo.ts',
      'apps/api/src/db/**',
      'apps/api/src/jobs/**',
      'apps/api/src/app.ts',
      'apps/api/src/compose.ts',
      'apps/api/src/server.ts',
      'apps/api/src/worker.ts',
      'apps/api/src/plugins/health.ts',
    ],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['kysely', 'pg', 'better-sqlite3'],
          message: 'only *.repo.ts and db/ touch the database (CONVENTIONS)',
        },
        {
          group: ['@tenpo/web', '**/apps/web/**', '@tenpo/sandbox', '**/apps/sandbox/**'],
          message: 'api imports the sandbox only in src/compose.ts',
        },
      ]),
    },
  },
  {
    files: ['apps/sandbox/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['@tenpo/api', '**/apps/api/**', '@tenpo/web', '**/apps/web/**', '@tenpo/domain'],
          message: 'the sandbox encodes the providers, not our assumptions',
        },
      ]),
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    // The build's own config runs in Node (its precompress step writes .br/.gz files, ADR 0071).
    ignores: ['apps/web/vite.config.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': restrict([webDomainOnly]) },
  },
  // Hooks: called unconditionally, and effects/memos list what they read. A deliberate
  // omission carries an eslint-disable-next-line comment saying why (ADR 0077).
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  // Web's zones (CONVENTIONS "Boundaries"), lowest first: i18n ← lib ← components ← features ←
  // app/. Each imports only from below it; app/ (with main.tsx and test/) composes them all.
  // A feature never imports a sibling feature: screens compose them in app/.
  ...webZone('features', [], 'features import components, lib and i18n; app/ composes them', [
    {
      group: [
        '**/features/*',
        '../../*/**',
        '!../../components/**',
        '!../../lib/**',
        '!../../i18n/**',
      ],
      message: 'features do not import sibling features; compose them in app/',
    },
  ]),
  ...webZone('components', ['features'], 'components are shared UI: they import lib and i18n'),
  ...webZone('lib', ['features', 'components'], 'lib is below the UI: it imports i18n at most'),
  ...webZone('i18n', ['features', 'components', 'lib'], 'i18n imports nothing of web'),
);
