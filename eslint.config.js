// ESLint: typescript-eslint's type-checked rules over the TypeScript sources. Generated files,
// builds and plain build scripts are left out (generated/ is checked byte for byte instead).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'client/dist/**', 'generated/**', 'node_modules/**', 'coverage/**', 'test/artifacts/**', '**/*.mjs', '**/*.cjs', '**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // The SQLite adapter answers synchronously behind the Store interface's promises (another
    // engine needs them): its async methods have nothing to await.
    files: ['server/store/sqlite/**/*.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    // Tests read arbitrary JSON (spec documents, response bodies of any operation): `any` is
    // the honest type there, and the assertions are the check.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
);
