import { describe, expect, it } from 'vitest';
import {
  cancellationExpiry,
  cancellationView,
  confirmBefore,
  CONFIRM_WINDOW_MS,
  isCancellationId,
  newCancellationId,
  policyMark,
  stillAsPreviewed,
  type Cancellation,
} from './cancellation.js';
import type { OrderItem } from '../order.js';

const NOW = new Date('2026-11-28T12:00:00.000Z');

const item = (policyNumber: string, status: OrderItem['policy']['status'] = 'Issued', steps = 1, openClaim?: string): OrderItem =>
  ({
    reference_number: `ref-${policyNumber}`,
    policy: {
      policy_number: policyNumber,
      status,
      history: Array.from({ length: steps }, (_, i) => ({ status: i === 0 ? 'Issued' : status, at: `2026-11-2${i}T00:00:00.000Z`, reason: 'x' })),
    },
    ...(openClaim ? { open_claim: openClaim } : {}),
  }) as OrderItem;

const preview = (items: OrderItem[]): Cancellation => ({
  cancellation_id: 'cn_1',
  client_id: 'c',
  scope: 'order',
  service_order_id: 'o',
  mode: 'void',
  reason: 'other',
  currency: 'KWD',
  policies: items.map((i) => ({
    policy_number: i.policy.policy_number,
    reference_number: i.reference_number,
    status_after: 'Void',
    refund_due: 1_234,
    mark: policyMark(i),
  })),
  created: NOW.toISOString(),
  confirm_before: new Date(NOW.getTime() + CONFIRM_WINDOW_MS).toISOString(),
});

describe('a cancellation preview', () => {
  it('can be confirmed for 24 hours; a void’s no later than the earliest void window it relies on', () => {
    expect(confirmBefore(NOW, 'cancel', ['2026-11-28T13:00:00.000Z'])).toBe('2026-11-29T12:00:00.000Z');
    expect(confirmBefore(NOW, 'void', [])).toBe('2026-11-29T12:00:00.000Z');
    expect(confirmBefore(NOW, 'void', ['2026-12-01T00:00:00.000Z', '2026-11-28T13:00:00.000Z'])).toBe('2026-11-28T13:00:00.000Z');
  });

  it('is stale once any of its policies moved: a status, a step, a claim, another policy under the reference', () => {
    const items = [item('A'), item('B')];
    const kept = preview(items);
    expect(stillAsPreviewed(kept, items)).toBe(true);
    expect(stillAsPreviewed(kept, [item('A', 'Canceled', 2), item('B')])).toBe(false);
    expect(stillAsPreviewed(kept, [item('A'), item('B', 'Issued', 1, 'clm_1')])).toBe(false);
    expect(stillAsPreviewed(kept, [item('A')])).toBe(false);
    expect(stillAsPreviewed(kept, [item('A'), { ...item('C'), reference_number: 'ref-B' }])).toBe(false);
  });

  it('reads its amounts in the currency’s minor unit, and is kept 30 days past confirm_before', () => {
    const view = cancellationView(preview([item('A'), item('B')]));
    expect(view).toMatchObject({ total_refund: '2.468', policies: [{ refund_due: '1.234' }, { refund_due: '1.234' }] });
    expect(cancellationExpiry({ confirm_before: '2026-11-29T12:00:00.000Z' })).toBe(Date.parse('2026-12-29T12:00:00.000Z') / 1000);
  });

  it('has an id of its own shape, and nothing else is one', () => {
    expect(isCancellationId(newCancellationId())).toBe(true);
    for (const other of [undefined, '', 'cn_', 'cn_short', 'qt_000000000000000000000000', 'cn_00000000000000000000000/'])
      expect(isCancellationId(other)).toBe(false);
  });
});
