import { fromEnv } from '@aws-sdk/credential-provider-env';

type CredentialsProvider = ReturnType<typeof fromEnv>;
type Credentials = Awaited<ReturnType<CredentialsProvider>>;

/**
 * What the deployed bundles use in place of `@aws-sdk/credential-provider-node` (an esbuild alias
 * in lib/service-function.ts). Lambda always hands a function its role's credentials in
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, and the SDK's default chain takes
 * those first; the rest of that chain (SSO, ini files, credential processes, web identity, the
 * container and instance metadata services, with the STS and SSO clients they need) is ~130 KB
 * of bundle parsed on every cold start and never run. Only deployed bundles are aliased: tests,
 * scripts and the CLI keep the SDK's whole chain.
 */
export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}): CredentialsProvider => fromEnv(init);

/** The other two exports of the module this one stands in for, with the SDK's own meaning. */
export const credentialsWillNeedRefresh = (credentials?: Credentials): boolean => credentials?.expiration !== undefined;
export const credentialsTreatedAsExpired = (credentials?: Credentials): boolean =>
  credentials?.expiration !== undefined && credentials.expiration.getTime() - Date.now() < 300_000;
