import { Runtime } from 'aws-cdk-lib/aws-lambda';

/**
 * The one Node.js major of the project: the Lambda runtime, esbuild's target for the bundles, and
 * the `node` devDependency whose binary npm puts first on every npm script's PATH (tests, npm start,
 * the bench, the CLI), so a machine whose own Node is older runs the scripts on this major with
 * nothing installed by hand. lib/runtime.test.ts fails when package.json, tsconfig.json, the
 * README or the running process disagree with it.
 *
 * Why 22 and not 24: Lambda runs both, but the npm registry's `node` package stops its 24 line at
 * 24.9.0 (before 24 became LTS, without its security releases), while its 22 line is current. Node
 * 22's support ends on 2027-04-30: move to 24 before then (docs/decisions.md).
 */
export const NODE_MAJOR = 22;

export const LAMBDA_RUNTIME: Runtime = Runtime.NODEJS_22_X;

/** esbuild's target for the deployed bundles. */
export const ESBUILD_TARGET = `node${NODE_MAJOR}`;

/** The newest ECMAScript edition this major runs in full: tsconfig's `target`. */
export const ECMASCRIPT_TARGET = 'ES2024';
