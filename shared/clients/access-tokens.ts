import type { ClientStatus, ClientStatusStore } from './client.js';
import type { Clock } from '../platform/clock.js';
import { signToken, verifyToken } from '../platform/keys/tokens.js';

/**
 * Access tokens carry the client's key generation (`gen`). The authorizer accepts one only if
 * its lifetime is within bounds and its client still exists, is not disabled and is still at
 * that generation: rotating the secret or disabling the client stops every earlier token within
 * STATUS_CACHE_MS, at one read per client per STATUS_CACHE_MS per container.
 */
const STATUS_CACHE_MS = 60_000;

export type ClientStatusReader = Pick<ClientStatusStore, 'status'>;
/** A cached reader that can also be told to read afresh. */
export interface CachedClientStatuses extends ClientStatusReader {
  refresh(clientId: string): Promise<ClientStatus | undefined>;
}
export type AccessCheck = { ok: true; clientId: string } | { ok: false; reason: 'expired' | 'invalid' | 'revoked' };
export interface AuthorizeDeps {
  statuses: CachedClientStatuses;
  clock: Clock;
  ttlSeconds: number;
}

export function signAccessToken(clientId: string, generation: number, ttlSeconds: number, now: Date): Promise<string> {
  return signToken('access', clientId, { gen: generation }, ttlSeconds, now);
}

/** A per-container cache in front of `reader`: concurrent misses share one read; a failed read is not kept. */
export function cachedClientStatuses(reader: ClientStatusReader, clock: Clock): CachedClientStatuses {
  const entries = new Map<string, { readAt: number; status: Promise<ClientStatus | undefined> }>();
  const read = (clientId: string, now: number) => {
    const status = reader.status(clientId).catch((err: unknown) => {
      entries.delete(clientId);
      throw err;
    });
    entries.set(clientId, { readAt: now, status });
    return status;
  };
  return {
    status(clientId) {
      const now = clock.now().getTime();
      const entry = entries.get(clientId);
      return entry && now - entry.readAt < STATUS_CACHE_MS ? entry.status : read(clientId, now);
    },
    refresh: (clientId) => read(clientId, clock.now().getTime()),
  };
}

/** Signature and lifetime first (a bad token costs no read), then the client's status. */
export async function authorizeAccessToken(deps: AuthorizeDeps, token: string): Promise<AccessCheck> {
  const now = deps.clock.now();
  const verified = await verifyToken<{ sub: string; iat: number; exp: number; gen?: unknown }>('access', token, now);
  if (!verified.ok) return verified;
  const { sub, iat, exp, gen } = verified.payload;
  // verifyToken has bounded the age and refused an iat ahead of the clock; the lifetime the token claims is ours to bound.
  if (exp - iat > deps.ttlSeconds || !Number.isInteger(gen)) return { ok: false, reason: 'invalid' };
  let status = await deps.statuses.status(sub);
  // A genuine token newer than the cached status means the secret was rotated since the read:
  // read again rather than refuse the new secret's tokens for a minute (only we can sign one).
  if (status && (gen as number) > status.key_generation) status = await deps.statuses.refresh(sub);
  if (!status || status.disabled || status.key_generation !== gen) return { ok: false, reason: 'revoked' };
  return { ok: true, clientId: sub };
}
