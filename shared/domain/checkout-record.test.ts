import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeCheckout, type CheckoutInput } from './checkout-record.js';

/** The opt-out sanitizer keeps conversion facts and nothing that identifies a person. */
const facts = { client_id: 'cl_1', opt_in: false, quote_id: 'qt_1', premium_total: 1322, now: new Date('2026-11-23T10:15:30.123Z') };

const realistic = {
  order_number: 'A-1001',
  currency: 'USD',
  items: [{ cost: 12000, event: { start_date: '2027-04-10' } }, { cost: 3550, event: { start_date: '2027-04-11' } }],
  customer: { first_name: 'Giacomo', last_name: 'Leopardi', email: 'g.leopardi@example.it', phone: '+39 333 1234567' },
  billing_address: { address1: 'Via Roma 12', address2: 'Scala B', city: 'Recanati', zip_code: '62019', state: 'Marche', country: 'IT' },
  payment: { type: 'invoice' },
};

describe('sanitizeCheckout', () => {
  it('keeps country, state, a 3-character zip prefix, payment type, currency, counts, totals and event dates', () => {
    const record = sanitizeCheckout(realistic, facts);

    expect(record).toEqual({
      client_id: 'cl_1', order_number: 'A-1001', opt_in: false, service_order_id: null, quote_id: 'qt_1', currency: 'USD',
      item_count: 2, subtotal: '155.50', premium_total: '13.22', country: 'IT', state: 'Marche', zip_prefix: '620',
      payment_type: 'invoice', event_dates: ['2027-04-10', '2027-04-11'], day: '2026-11-23', logged_at: '2026-11-23T10:15:30.123Z',
    });
  });

  it('keeps none of the name, e-mail, phone, street, city or full zip', () => {
    const stored = JSON.stringify(sanitizeCheckout(realistic, facts));
    for (const pii of ['Giacomo', 'Leopardi', 'g.leopardi', '1234567', 'Via Roma', 'Scala', 'Recanati', '62019']) expect(stored).not.toContain(pii);
  });

  it('drops a card number or an address pasted into payment type, state or country', () => {
    const record = sanitizeCheckout({ ...realistic, payment: { type: '4111 1111 1111 1111' }, billing_address: { state: 'Via Roma 12', country: 'g.leopardi@example.it' } }, facts);
    expect([record.payment_type, record.state, record.country]).toEqual([null, null, null]);
  });

  it('never stores any marked personal value sent in the personal fields', () => {
    const marked = (tag: string) => fc.string({ minLength: 1, maxLength: 12 }).map((s) => `${tag}${s}`);
    fc.assert(fc.property(marked('FIRST'), marked('LAST'), marked('MAIL@'), fc.stringMatching(/^\+?\d{9,14}$/), marked('STREET'), marked('CITY'), fc.stringMatching(/^\d{5,9}$/), (first, last, email, phone, street, city, zip) => {
      // The whole request as a merchant sends it; the sanitizer sees all of it.
      const billing = { address1: street, address2: city, city, zip_code: zip, state: 'Marche', country: 'IT' };
      const input: CheckoutInput = { ...realistic, billing_address: billing, payment: { type: phone } };
      Object.assign(input, { customer: { first_name: first, last_name: last, email, phone } });
      const stored = JSON.stringify(sanitizeCheckout(input, facts));
      for (const value of [first, last, email, phone, street, city, zip]) expect(stored).not.toContain(value);
    }));
  });
});
