import type { FoundPolicy, Order } from '../orders/index.js';
import type { LedgerEntry } from '../ledger/index.js';
import type { PolicyFacts } from './bordereau.js';

/** Policies remembered (a policy's issue and its refund are two entries); a bounded map, oldest dropped first. */
const REMEMBERED = 10_000;

/**
 * The facts a premium row needs, for an entry that does not carry them (written before entries
 * kept them): the policy's item, found as the policy routes find it, and its order's number. Entries
 * written since carry them, and an export of those never comes here.
 */
export class PolicyFactsReader {
  private readonly remembered = new Map<string, PolicyFacts>();

  constructor(
    private readonly orders: {
      findPolicy(clientId: string, policyNumber: string): Promise<FoundPolicy | undefined>;
      get(clientId: string, orderId: string): Promise<Order | undefined>;
    },
  ) {}

  async factsOf(clientId: string, entry: LedgerEntry): Promise<PolicyFacts> {
    const key = `${clientId}|${entry.policy_number ?? ''}`;
    const known = this.remembered.get(key);
    if (known) return known;
    const found = entry.policy_number === undefined ? undefined : await this.orders.findPolicy(clientId, entry.policy_number);
    const order = found && (await this.orders.get(clientId, found.service_order_id));
    if (!found || !order) throw new Error(`no item holds the policy of ledger entry ${entry.id}`);
    const facts = { order_number: order.order_number, coverage_amount: found.item.policy.coverage_amount, risk_start: found.item.policy.created };
    if (this.remembered.size >= REMEMBERED) this.remembered.delete(this.remembered.keys().next().value!);
    this.remembered.set(key, facts);
    return facts;
  }
}
