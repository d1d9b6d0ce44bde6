import { afterEach, describe, expect, it } from 'vitest';
import { credentialsTreatedAsExpired, credentialsWillNeedRefresh, defaultProvider } from './lambda-credentials.js';

/** The credential provider of deployed bundles: Lambda's environment variables and nothing else. */
const VARIABLES = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_CREDENTIAL_EXPIRATION'] as const;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe('lambda credentials', () => {
  it('are the role credentials Lambda puts in the environment', async () => {
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'ASIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'session' });
    delete process.env.AWS_CREDENTIAL_EXPIRATION;

    await expect(defaultProvider()()).resolves.toMatchObject({ accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'session' });
  });

  it("fail with the SDK's own error when the environment has none (no file, SSO or metadata lookups)", async () => {
    for (const name of VARIABLES) delete process.env[name];

    await expect(defaultProvider()()).rejects.toMatchObject({ name: 'CredentialsProviderError' });
  });

  it('treat credentials as expiring five minutes early, like the SDK chain they replace', () => {
    const now = Date.now();
    expect(credentialsWillNeedRefresh({ accessKeyId: 'a', secretAccessKey: 'b' })).toBe(false);
    expect(credentialsTreatedAsExpired({ accessKeyId: 'a', secretAccessKey: 'b', expiration: new Date(now + 60_000) })).toBe(true);
    expect(credentialsTreatedAsExpired({ accessKeyId: 'a', secretAccessKey: 'b', expiration: new Date(now + 3_600_000) })).toBe(false);
  });
});
