import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeCheckout, type CheckoutInput } from './checkout-record.js';
import { PAYMENT_TYPES } from './coded-values.js';

/** The opt-out sanitizer keeps conversion facts, as codes, and nothing that identifies a person. */
const facts = {
  client_id: 'cl_1',
  order_hash: 'kYq3v6m1n0QW2bKx9Rj8TfA-_x1kP0s4uZcH7dLe5gN',
  opt_in: false,
  quote_id: 'qt_1',
  premium_total: 1322,
  now: new Date('2026-11-23T10:15:30.123Z'),
};

const realistic = {
  order_number: 'A-1001',
  currency: 'USD',
  items: [
    { cost: 12000, event: { start_date: '2027-04-10' } },
    { cost: 3550, event: { start_date: '2027-04-11' } },
  ],
  customer: { first_name: 'Giacomo', last_name: 'Leopardi', email: 'g.leopardi@example.it', phone: '+39 333 1234567' },
  billing_address: { address1: 'Via Roma 12', address2: 'Scala B', city: 'Recanati', zip_code: '62019', state: 'MC', country: 'it' },
  payment: { type: 'invoice' },
};

describe('sanitizeCheckout', () => {
  it('keeps the order hash, country and state codes, a 3-character zip prefix, payment type, currency, counts, totals and event dates', () => {
    const record = sanitizeCheckout(realistic, facts);

    expect(record).toEqual({
      client_id: 'cl_1',
      order_hash: 'kYq3v6m1n0QW2bKx9Rj8TfA-_x1kP0s4uZcH7dLe5gN',
      order_ref: null,
      opt_in: false,
      service_order_id: null,
      quote_id: 'qt_1',
      currency: 'USD',
      item_count: 2,
      subtotal: '155.50',
      premium_total: '13.22',
      country: 'IT',
      state: 'IT-MC',
      zip_prefix: '620',
      payment_type: 'invoice',
      event_dates: ['2027-04-10', '2027-04-11'],
      day: '2026-11-23',
      logged_at: '2026-11-23T10:15:30.123Z',
    });
  });

  it('keeps none of the order number, name, e-mail, phone, street, city or full zip', () => {
    const stored = JSON.stringify(sanitizeCheckout(realistic, facts));
    for (const pii of ['A-1001', 'Giacomo', 'Leopardi', 'g.leopardi', '1234567', 'Via Roma', 'Scala', 'Recanati', '62019']) expect(stored).not.toContain(pii);
  });

  it.each([
    ['Jane Smith', null],
    ['5500 0000 0000 0004', null],
    ['g.leopardi@example.it', null],
    ['ABC', null],
    ['97201', '972'],
    ['97201-1234', '972'],
    ['SW1A 1AA', 'SW1'],
    ['K1A 0B1', 'K1A'],
  ])('keeps a zip prefix only of a postal code: %s → %s', (zip, prefix) => {
    expect(sanitizeCheckout({ ...realistic, billing_address: { zip_code: zip, country: 'US' } }, facts).zip_prefix).toBe(prefix);
  });

  it('drops a card number, a name or an address pasted into payment type, state or country', () => {
    const record = sanitizeCheckout(
      { ...realistic, payment: { type: '4111 1111 1111 1111' }, billing_address: { state: 'Via Roma 12', country: 'g.leopardi@example.it' } },
      facts,
    );
    expect([record.payment_type, record.state, record.country]).toEqual(['other', null, null]);
    const named = sanitizeCheckout({ ...realistic, payment: { type: 'Giacomo' }, billing_address: { state: 'Marche', country: 'Leopardi' } }, facts);
    expect([named.payment_type, named.state, named.country]).toEqual(['other', null, null]);
  });

  it('keeps a state only as a subdivision of the country given, in full form', () => {
    const stateOf = (state: string, country?: string) => sanitizeCheckout({ ...realistic, billing_address: { state, country } }, facts).state;
    expect([stateOf('OR', 'US'), stateOf('us-or', 'us'), stateOf(' US-OR ', 'US'), stateOf('ENG', 'GB')]).toEqual(['US-OR', 'US-OR', 'US-OR', 'GB-ENG']);
    expect([stateOf('OR'), stateOf('US-OR'), stateOf('US-OR', 'GB'), stateOf('OR', 'XX'), stateOf('ZZ', 'US')]).toEqual([null, null, null, null, null]);
  });

  it('stores only codes: country, state and payment type are each a listed code, other or null, whatever was sent', () => {
    const anyText = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('US', 'gb', 'IT', 'OR', 'US-OR', 'eng', 'card', 'PayPal'));
    fc.assert(
      fc.property(anyText, anyText, anyText, (country, state, type) => {
        const record = sanitizeCheckout({ ...realistic, billing_address: { country, state }, payment: { type } }, facts);
        expect(record.country === null || /^[A-Z]{2}$/.test(record.country)).toBe(true);
        expect(record.state === null || /^([A-Z]{2})-[A-Z0-9]{1,3}$/.exec(record.state)?.[1] === record.country).toBe(true);
        expect([...PAYMENT_TYPES, 'other', null]).toContain(record.payment_type);
      }),
    );
  });

  it('never stores any marked personal value sent in the personal fields', () => {
    const marked = (tag: string) => fc.string({ minLength: 1, maxLength: 12 }).map((s) => `${tag}${s}`);
    fc.assert(
      fc.property(
        marked('FIRST'),
        marked('LAST'),
        marked('MAIL@'),
        fc.stringMatching(/^\+?\d{9,14}$/),
        marked('STREET'),
        marked('CITY'),
        fc.stringMatching(/^\d{5,9}$/),
        (first, last, email, phone, street, city, zip) => {
          // The whole request as a merchant sends it; the sanitizer sees all of it.
          const billing = { address1: street, address2: city, city, zip_code: zip, state: 'MC', country: 'IT' };
          const input: CheckoutInput = { ...realistic, billing_address: billing, payment: { type: phone } };
          Object.assign(input, { customer: { first_name: first, last_name: last, email, phone } });
          const stored = JSON.stringify(sanitizeCheckout(input, facts));
          for (const value of [first, last, email, phone, street, city, zip]) expect(stored).not.toContain(value);
        },
      ),
    );
  });
});
