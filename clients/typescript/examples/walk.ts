/**
 * The guide's first steps as a merchant's back-end takes them with the client: an access token,
 * a quote, the order of a customer who accepted protection, reading it, an upgrade, and the second
 * change of the same item, refused.
 *
 *   npm start                                   # in one terminal
 *   npx tsx clients/typescript/examples/walk.ts  # in another, at the project's root
 *
 * It reads the demo keys npm start wrote to .local/demo-client.json in the current directory
 * (OP_BASE_URL, OP_PUBLIC_KEY and OP_SECRET_KEY win when set).
 */
import { readFileSync } from 'node:fs';
import { createOrderProtectionClient, OrderProtectionError } from '@order-protection/client';

const demo = (): { base_url: string; public_key: string; secret_key: string } =>
  JSON.parse(readFileSync('.local/demo-client.json', 'utf8')) as { base_url: string; public_key: string; secret_key: string };
const { OP_BASE_URL, OP_PUBLIC_KEY, OP_SECRET_KEY } = process.env;
const keys = OP_BASE_URL && OP_PUBLIC_KEY && OP_SECRET_KEY ? { base_url: OP_BASE_URL, public_key: OP_PUBLIC_KEY, secret_key: OP_SECRET_KEY } : demo();

const client = createOrderProtectionClient({ baseUrl: keys.base_url, publicKey: keys.public_key, secretKey: keys.secret_key });

// 1. Sign in: the client trades the keys for an access token, and takes a new one before it expires.
const token = await client.accessToken();
console.log(`1. access token ${token.slice(0, 12)}…`);

// 2. Checkout: the widget's quote (public key only), with a token for each answer the customer may give.
const event = { name: 'Spring Concert', start_date: '2027-04-10', start_time: '19:30', location: 'City Hall' };
const items = [
  { name: 'Seat A1', reference_number: 'a1', cost: '120.00', event },
  { name: 'Seat A2', reference_number: 'a2', cost: '80.00', event },
];
const quote = await client.quotes.create({ currency: 'USD', items });
console.log(`2. quote ${quote.quote_id}: premium ${quote.premium_total} ${quote.currency}`);

// The customer accepted: the order is created with one Issued policy per item (an Idempotency-Key is sent for you).
const order = await client.orders.create({
  token: quote.tokens.opt_in,
  order_number: `W-${Date.now()}`,
  currency: 'USD',
  items,
  customer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
});
if (!order) throw new Error('an accepted quote makes an order');
const id = order.service_order_id;
console.log(`   order ${id}: ${order.policies.map((p) => `${p.policy_number} ${p.status}`).join(', ')}`);

// Read it back.
const read = await client.orders.retrieve(id);
console.log(`   read: ${read.items.length} items, subtotal ${read.subtotal} ${read.currency}`);

// 3. Upgrade seat a1: the answer holds only the new item and its policy, with the premium to charge.
const upgrade = await client.orders.change(id, { items: [{ name: 'Seat VIP', old_reference_number: 'a1', reference_number: 'vip-1', cost: '200.00' }] });
const vip = upgrade.policies[0]!;
console.log(`3. upgrade: ${vip.policy_number} replaces ${vip.replaces}, charge ${vip.premium_delta} ${vip.currency}`);

// a1's policy left Issued for good: a second change of it is refused with a typed error.
try {
  await client.orders.change(id, { items: [{ name: 'Seat B1', old_reference_number: 'a1', reference_number: 'b1', cost: '90.00' }] });
  throw new Error('a second change of a1 should be refused');
} catch (error) {
  if (!(error instanceof OrderProtectionError) || error.status !== 409) throw error;
  console.log(`   second change refused: ${error.status} ${error.code} (${error.param})`);
}
