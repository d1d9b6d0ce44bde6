import type { Context } from 'aws-lambda';
import { openCursor, sealCursor } from '#shared/platform/keys/cursors.js';
import { loadConfig } from '#shared/platform/config.js';
import { systemClock } from '#shared/platform/clock.js';
import { listLedger } from '#shared/ledger/read-ledger.js';
import { readStatement } from '#shared/ledger/statements.js';
import { DynamoCollectionsStore } from '#shared/ledger/dynamo-collections-store.js';
import { entryView, statementView } from '#shared/ledger/ledger-view.js';
import { ListLedgerQuery, StatementPath } from '#shared/ledger/schemas.js';
import { DynamoLedgerStore } from '#shared/ledger/dynamo-ledger-store.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { clientIdOf, httpHandler, type HttpEvent } from '#shared/platform/http/middleware.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';

const config = loadConfig();
const ledgerStore = new DynamoLedgerStore(sharedDocumentClient(), config.tableName);
const deps = { ledger: ledgerStore, cursors: { seal: sealCursor, open: openCursor }, clock: systemClock };
const statements = { collections: new DynamoCollectionsStore(sharedDocumentClient(), config.tableName, ledgerStore), clock: systemClock };

/** GET /api/v2/ledger?period&type&limit&cursor: a month's entries, newest first. */
const ledger = httpHandler(
  async (event, info) => {
    const query = parseInput(ListLedgerQuery, event.queryStringParameters ?? {});
    const { period, entries, nextCursor } = await listLedger(deps, clientIdOf(info), query);
    return jsonResponse(200, { period, data: entries.map(entryView), has_more: nextCursor !== undefined, next_cursor: nextCursor ?? null });
  },
  { authenticated: true },
);

/** GET /api/v2/statements/{period}: a month's figures and balances per currency, its due date and standing. */
const statement = httpHandler(
  async (event, info) => {
    const { period } = parseInput(StatementPath, { period: event.pathParameters?.period ?? '' });
    return jsonResponse(200, statementView(await readStatement(statements, clientIdOf(info), period)));
  },
  { authenticated: true },
);

/** One function, two routes. */
export const handler = (event: HttpEvent, context: Context) => (event.rawPath.includes('/statements/') ? statement : ledger)(event, context);
