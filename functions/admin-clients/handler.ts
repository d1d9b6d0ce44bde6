import { loadConfig } from '#shared/platform/config.js';
import { openCursor, sealCursor } from '#shared/platform/keys/cursors.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { httpHandler } from '#shared/platform/http/middleware.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { listPage } from '#shared/platform/http/schemas.js';
import { routeRoles } from '#shared/platform/functions.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { clientSummaryView, listClients, type ClientSummary } from '#shared/clients/index.js';
import { systemClock } from '#shared/platform/clock.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { DynamoLedgerStore } from '#shared/ledger/dynamo-ledger-store.js';
import { DynamoCollectionsStore } from '#shared/ledger/dynamo-collections-store.js';
import { accountOf, type AccountStanding } from '#shared/ledger/statements.js';
import { formatMoney } from '#shared/platform/money/index.js';
import * as v from 'valibot';

const config = loadConfig();
const register = new DynamoClientStore(sharedDocumentClient(), config.tableName);
const collections = new DynamoCollectionsStore(sharedDocumentClient(), config.tableName, new DynamoLedgerStore(sharedDocumentClient(), config.tableName));
/** Accounts read at once for a page (each a few Queries). */
const ACCOUNT_READS = 10;
// The list's cursors are sealed like every list cursor, under a scope of their own.
const SCOPE = 'admin:clients';
const cursors = { seal: (position: string) => sealCursor(SCOPE, {}, position), open: (cursor: string) => openCursor(SCOPE, {}, cursor) };
const Query = v.strictObject({ limit: listPage.limit, cursor: listPage.cursor });

/** A client with its account: what it owes now per currency, and the months it is overdue on. */
const clientView = (client: ClientSummary, account: AccountStanding, now: Date) => ({
  ...clientSummaryView(client, now),
  balances: account.balances.map(({ currency, balance }) => ({ currency, balance: formatMoney(balance, currency) })),
  overdue: account.overdue,
});

/** GET /api/v2/admin/clients (any staff role): the merchants with their balance and overdue months, read-only, a page at a time. */
export const handler = httpHandler(
  async (event) => {
    const query = parseInput(Query, event.queryStringParameters ?? {});
    const page = await listClients({ register, cursors }, query);
    const now = systemClock.now();
    const accounts: AccountStanding[] = [];
    for (let start = 0; start < page.clients.length; start += ACCOUNT_READS)
      accounts.push(...(await Promise.all(page.clients.slice(start, start + ACCOUNT_READS).map((client) => accountOf(collections, client.client_id, now)))));
    return jsonResponse(200, {
      data: page.clients.map((client, index) => clientView(client, accounts[index]!, now)),
      has_more: page.nextCursor !== undefined,
      next_cursor: page.nextCursor ?? null,
    });
  },
  { staff: routeRoles('admin-clients') },
);
