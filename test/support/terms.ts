import type { Service } from './service.js';

/** Finance, as the admin routes see a person of that group. */
export const financeClaims = { sub: 'u-finance', email: 'finance@insurer.example', token_use: 'access', 'cognito:groups': ['finance'] };

/**
 * Publishes the next version of a client's terms through the real handler: the version in force
 * with `changes` (API field names and text, as a request carries them), in force now unless
 * `effective_from` says otherwise. Throws on anything but 201.
 */
export async function publishTermsVersion(service: Service, clientId: string, changes: Record<string, unknown>): Promise<Record<string, unknown>> {
  const path = `/api/v2/admin/clients/${clientId}/terms`;
  const listed = await service.call('admin-terms', { method: 'GET', path, pathParameters: { id: clientId }, staffClaims: financeClaims });
  const inForce = (listed.json.data as { version: number }[]).find((version) => version.version === listed.json.in_force) as Record<string, unknown>;
  const { rate_bands, minimum_premium, commission_rate, look_period_days } = inForce;
  const res = await service.call('admin-terms', {
    method: 'POST',
    path,
    pathParameters: { id: clientId },
    staffClaims: financeClaims,
    body: { rate_bands, minimum_premium, commission_rate, look_period_days, ...changes },
  });
  if (res.status !== 201) throw new Error(`publishing terms failed: ${res.status} ${res.body}`);
  return res.json as Record<string, unknown>;
}
