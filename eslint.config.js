// `npm run lint` runs this after the layer rules (.dependency-cruiser.cjs) and before prettier's check.
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** Code and its comments point only at what the repository holds: notes it relies on live in docs/. */
const outsideLinks = {
  meta: {
    type: 'problem',
    messages: { outside: 'links to {{ what }}, outside the repository: point to docs/ instead' },
  },
  create(context) {
    const OUTSIDE = /\.\.\/shared\/(?!data\/)|\bDESIGN\.md\b|\/work\//;
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          const found = OUTSIDE.exec(comment.value);
          if (found) context.report({ loc: comment.loc, messageId: 'outside', data: { what: found[0] } });
        }
      },
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'src/generated/',
      'src/graphql/generated/',
      'bench/data/',
      'bench/postgraphile/node_modules/',
      'data/',
      'coverage/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  prettier,
  {
    plugins: { '@stylistic': stylistic, local: { rules: { 'no-outside-links': outsideLinks } } },
    rules: {
      '@stylistic/max-len': ['error', { code: 120, ignoreUrls: true }],
      'local/no-outside-links': 'error',
      // Unused arguments keep resolver and hook signatures readable; an underscore marks them.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // src/domain is pure (docs/architecture.md): the caller passes the time in, so a rule gives the same answer for
    // the same values. The import side of the line is the `domain-is-pure` rule in .dependency-cruiser.cjs.
    files: ['src/domain/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'src/domain reads no clock: take `now` as an argument.' },
        { object: 'performance', property: 'now', message: 'src/domain reads no clock: take it as an argument.' },
        { object: 'Math', property: 'random', message: 'src/domain draws from a seeded generator (prng.ts).' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'src/domain reads no clock: take `now` as an argument.',
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['process', 'fetch', 'setTimeout', 'setInterval', 'console'].map((name) => ({
          name,
          message: 'src/domain does no I/O: values in, values out.',
        })),
      ],
    },
  },
  {
    // Tests read answers of every shape by hand; typing each one would hide what they assert.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The scripts of the pages the gateway serves (/graphiql) run in the browser, on the globals of its page.
    files: ['**/*.browser.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { window: 'readonly', document: 'readonly', fetch: 'readonly' },
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['bench/postgraphile/**/*.mjs', 'scripts/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
