// ESLint with typescript-eslint (type-aware), plus React hooks rules for the web app.
// Formatting is Prettier's job (`npm run format`); ESLint checks correctness only.
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** The web app's feature folders (`web/src/features/<feature>`). */
const WEB_FEATURES = [
  'api-tokens',
  'auth',
  'batches',
  'billing',
  'canvas',
  'legal',
  'projects',
  'sharing',
  'templates',
]

/**
 * Features do not import each other (bulletproof-react's feature boundaries; issue 14):
 * `web/src/app` composes them, and what two features share lives in `web/src/lib`,
 * `components`, `hooks` or `stores`. One override per feature forbids the others' folders,
 * by alias and by relative path.
 */
const featureBoundaries = WEB_FEATURES.map((feature) => {
  const others = WEB_FEATURES.filter((f) => f !== feature)
  return {
    files: [`web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: others.flatMap((f) => [
                `@/features/${f}`,
                `@/features/${f}/**`,
                `**/features/${f}/**`,
              ]),
              message: `Features do not import each other: move what ${feature} needs from there to web/src/lib (or components, hooks, stores), or compose them in web/src/app.`,
            },
            {
              group: others.map((f) => `../../${f}/**`),
              message: 'Features do not import each other.',
            },
          ],
        },
      ],
    },
  }
})

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'e2e/.data/**',
      '**/test-results/**',
      '**/playwright-report/**',
      // Generated from the api's OpenAPI document by `npm run openapi -w api` (issue 41 item 4).
      'web/src/lib/api-schema.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...featureBoundaries,
  {
    files: ['**/*.test.{ts,tsx}', '**/testing/**', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
)
