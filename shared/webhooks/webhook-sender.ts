import { DELIVERY_TIMEOUT_MS, type SendResult } from './dispatch-webhooks.js';

/**
 * POSTs a signed event, waiting `timeoutMs` at most (the dispatcher's first try waits less). Redirects are not followed (a redirect could lead past the URL rules to a
 * private address); the answer's body is not read beyond its status. Never throws: a failure is
 * a result (`error`: timeout, connection_failed, redirect).
 */
export async function sendWebhook(url: string, headers: Record<string, string>, body: string, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<SendResult> {
  const started = performance.now();
  const duration = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'OrderProtection-Webhooks/1', ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel().catch(() => undefined);
    return { status_code: response.status, duration_ms: duration() };
  } catch (err) {
    const name = (err as Error).name;
    return { error: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'connection_failed', duration_ms: duration() };
  }
}
