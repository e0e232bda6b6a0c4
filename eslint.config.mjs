// `npm run lint`: typescript-eslint on the project's own code (src/, test/, scripts/).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'editors/**', 'fixtures/**', 'coverage/**', '.raiselint_cache/**'] },
  {
    files: ['src/**/*.ts'],
    extends: [tseslint.configs.recommended],
    rules: {
      // `!` after a check the compiler cannot follow is the house style (noUncheckedIndexedAccess is on).
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // `typeof import('eslint').Linter` names a type of a module loaded lazily (engine/lazy.ts, jsrun.ts).
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // The compile log (rules/compile/state.ts) builds views whose methods close over the log.
      '@typescript-eslint/no-this-alias': 'off',
    },
  },
);
