import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * Lint: typescript-eslint with type information, formatting left to Prettier, and the shape of
 * the code as rules (docs "Code layout"): one folder per capability under shared/ that others
 * reach only through its index.ts, along the feature graph below; shared/platform knows no
 * feature; a feature's rules and use cases are pure; only lib/ and bin/ know the CDK.
 */
const CDK = ['aws-cdk-lib', 'aws-cdk-lib/*', 'constructs', 'cdk-nag'];
const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: CDK, message: 'The CDK belongs in lib/ and bin/ only.' }, ...patterns] }],
});

/**
 * The features and which others each may use, with why. The graph has no cycle: orders never
 * import claims (the "open claim holds a policy" rule is an order rule, refuseIfClaimed in
 * orders), and nothing imports webhooks, which only read what the others wrote.
 */
const FEATURES = {
  // Who is signed in and what they may do, and the audit log of staff actions, need nothing else.
  identity: [],
  // A merchant's keys and tokens, and its terms in force; a new client gets its first terms
  // version; staff creating or disabling a client leave an audit record.
  clients: ['identity', 'terms'],
  // The sanitized checkout record and the day counts stand alone.
  conversion: [],
  // A merchant's terms, versioned: rate bands, minimum premium, commission and look period. A
  // publish leaves an audit record.
  terms: ['identity'],
  // A quote prices a cart under the client's terms in force.
  quotes: ['clients', 'terms'],
  // An order redeems a quote token, takes the client's look period for its void windows and
  // writes its checkout record in its own transaction.
  orders: ['clients', 'quotes', 'conversion', 'terms'],
  // A claim session finds the client and the order; a claim locks its order's policies.
  claims: ['clients', 'orders', 'identity'],
  // Events are read off the orders', claims' and checkout records as the streams carry them.
  webhooks: ['orders', 'claims', 'conversion'],
  // The ledger is read off the orders' and claims' records as the stream carries them; finance
  // recording a remittance leaves an audit record.
  ledger: ['orders', 'claims', 'identity'],
  // A bordereau lists the ledger's month, its claims as they stand, and an older entry's policy facts.
  bordereaux: ['orders', 'claims', 'ledger', 'identity', 'terms'],
};

/** Adapters of a feature (DynamoDB, tokens, HTTP shapes, wiring): every other file of it is pure. */
const ADAPTERS = [
  'cognito-*.ts',
  'dynamo-*.ts',
  's3-*.ts',
  '*-tokens.ts',
  '*-view.ts',
  '*-deps.ts',
  'schemas.ts',
  'client-keys.ts',
  'webhook-signatures.ts',
  'webhook-sender.ts',
  'webhook-url-policy.ts',
];

function featureBoundaries() {
  const names = Object.keys(FEATURES);
  const others = (feature) =>
    names
      .filter((other) => other !== feature)
      .map((other) =>
        FEATURES[feature].includes(other)
          ? { group: [`../${other}/*`, `!../${other}/index.js`], message: `Use ${other} through its index.ts only.` }
          : { group: [`../${other}/*`], message: `${feature} may not import ${other} (the feature graph in eslint.config.js).` },
      );
  const impure = ['@aws-sdk/*', 'jose', '**/platform/dynamo/*', '**/platform/http/*', '**/platform/keys/*'];
  // Inside shared/ files import each other relatively, so that the graph above sees every import.
  const insideShared = { group: ['\\#shared/**'], message: 'Inside shared/, import relatively (../orders/index.js): #shared/ is for code outside it.' };
  return [
    {
      files: ['shared/platform/**'],
      rules: restrict([
        { group: names.map((name) => `**/${name}/*`), message: 'shared/platform is what every feature uses: it knows no feature.' },
        insideShared,
      ]),
    },
    ...names.map((feature) => ({ files: [`shared/${feature}/**`], rules: restrict([...others(feature), insideShared]) })),
    ...names.map((feature) => ({
      files: [`shared/${feature}/*.ts`],
      ignores: [...ADAPTERS.map((adapter) => `shared/${feature}/${adapter}`), '**/*.test.ts'],
      rules: restrict([
        ...others(feature),
        insideShared,
        { group: impure, message: `A rule or use case is pure: it reaches DynamoDB, HTTP and keys through a port (adapters: ${ADAPTERS.join(', ')}).` },
      ]),
    })),
  ];
}

/**
 * No binary floating point touches an amount. Everywhere in the service's and the widget's code:
 * no parseFloat, toFixed or toPrecision. In the money code itself (the money module, the widget's
 * offer) also no rounding through Math and no division but by a BigInt literal: amounts are
 * integers of minor units, or BigInt, or decimal strings.
 */
const FLOAT_MONEY = [
  { selector: "CallExpression[callee.name='parseFloat']", message: 'Money is never a float: parse amounts with parseMoney (integer minor units).' },
  {
    selector: 'MemberExpression[property.name=/^(parseFloat|toFixed|toPrecision)$/]',
    message: 'Money is never a float: format amounts with formatMoney, or Intl.NumberFormat on the decimal string.',
  },
];
export const FLOAT_MONEY_STRICT = [
  ...FLOAT_MONEY,
  {
    selector: "MemberExpression[object.name='Math'][property.name=/^(round|floor|ceil|trunc)$/]",
    message: 'Round money in integer or BigInt arithmetic (premiumFor, fromHundredths).',
  },
  {
    selector: "BinaryExpression[operator='/']:not([right.bigint])",
    message: 'Divide money only as BigInt (by a BigInt literal): a Number division is a float.',
  },
];
export const MONEY_FILES = ['shared/platform/money/*.ts', 'widget/src/offer.ts'];

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.local/', 'widget/dist/', 'clients/typescript/dist/', 'test-results/'] },
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
  // The client package knows the service only through openapi.yaml (its generated types), as a merchant's code would.
  {
    files: ['clients/**'],
    rules: restrict([
      { group: ['#shared/*', '**/shared/**', '**/functions/**'], message: 'The client knows the API through openapi.yaml only: never import the service.' },
    ]),
  },
  {
    files: ['shared/**/*.ts', 'functions/**/*.ts', 'widget/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...FLOAT_MONEY] },
  },
  { files: MONEY_FILES, ignores: ['**/*.test.ts'], rules: { 'no-restricted-syntax': ['error', ...FLOAT_MONEY_STRICT] } },
  ...featureBoundaries(),
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
