import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * Lint: typescript-eslint with type information, formatting left to Prettier, and the layering of
 * the code as rules (README "Code layout"): the domain is pure, infra knows no HTTP, only lib/ and
 * bin/ know the CDK.
 */
const CDK = ['aws-cdk-lib', 'aws-cdk-lib/*', 'constructs', 'cdk-nag'];
const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: CDK, message: 'The CDK belongs in lib/ and bin/ only.' }, ...patterns] }],
});

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.local/', 'widget/dist/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      ...restrict([]),
    },
  },
  { files: ['lib/**', 'bin/**'], rules: { 'no-restricted-imports': 'off' } },
  {
    files: ['shared/domain/**'],
    rules: restrict([
      {
        group: ['**/infra/*', '**/http/*', '**/auth/*', '@aws-sdk/*'],
        message: 'shared/domain is pure: it imports nothing from infra, http or auth (use a port).',
      },
    ]),
  },
  {
    files: ['shared/infra/**'],
    rules: restrict([{ group: ['**/http/*'], message: 'shared/infra knows no HTTP: put the port in shared/domain.' }]),
  },
  // Tests read response bodies field by field through matchers (their shapes are checked against
  // openapi.yaml by the contract test, not retyped here), fake async ports with plain async
  // functions, and wrap prototype methods in spies.
  {
    files: ['**/*.test.ts', 'test/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  prettier,
);
