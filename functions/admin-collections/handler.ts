import { loadConfig } from '#shared/platform/config.js';
import { systemClock } from '#shared/platform/clock.js';
import { openCursor, sealCursor } from '#shared/platform/keys/cursors.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { httpHandler, staffOf } from '#shared/platform/http/middleware.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { routeRoles } from '#shared/platform/functions.js';
import { prefixedIdPattern } from '#shared/platform/ids.js';
import { NotFoundError } from '#shared/platform/errors.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { newAuditId } from '#shared/identity/index.js';
import { MAX_SUSPENSION_REASON_LENGTH, resumeClient, standingView, suspendClient } from '#shared/clients/index.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { EmptyRequest, StaffNote } from '#shared/platform/http/schemas.js';
import * as v from 'valibot';
import { DynamoLedgerStore } from '#shared/ledger/dynamo-ledger-store.js';
import { DynamoCollectionsStore } from '#shared/ledger/dynamo-collections-store.js';
import { recordRemittance } from '#shared/ledger/record-remittance.js';
import { listRemittances } from '#shared/ledger/list-remittances.js';
import { reverseRemittance } from '#shared/ledger/reverse-remittance.js';
import { readStatement } from '#shared/ledger/statements.js';
import { remittanceView, statementView } from '#shared/ledger/ledger-view.js';
import { ListRemittancesQuery, RecordRemittanceRequest, ReverseRemittanceRequest, StatementPath } from '#shared/ledger/schemas.js';

const config = loadConfig();
const doc = sharedDocumentClient();
const collections = new DynamoCollectionsStore(doc, config.tableName, new DynamoLedgerStore(doc, config.tableName));
const standings = { store: new DynamoClientStore(doc, config.tableName), now: () => systemClock.now(), newAuditId };
const CLIENT_ID = prefixedIdPattern('cl');
const SuspendRequest = v.optional(
  v.strictObject({
    reason: v.optional(StaffNote(MAX_SUSPENSION_REASON_LENGTH)),
  }),
  {},
);

/**
 * Collections (role `finance`): POST /api/v2/admin/clients/{id}/remittances records a payment
 * (201; the same reference and body again answers the same), POST …/remittances/reverse
 * {reference, reason} reverses one (200; again answers the same), GET lists them newest first, and
 * GET …/statements/{period} is the client's statement as the merchant sees it; POST …/suspend
 * {reason?} stops its quotes (403 client_suspended) and POST …/resume {} offers them again.
 */
export const handler = httpHandler(
  async (event, info) => {
    const clientId = event.pathParameters?.id ?? '';
    // An id that cannot be a client's is the same 404 as an unknown one.
    if (!CLIENT_ID.test(clientId)) throw new NotFoundError('client_not_found', 'No client has this id.', 'id');
    if (event.routeKey === 'POST /api/v2/admin/clients/{id}/remittances') {
      const request = parseInput(RecordRemittanceRequest, event.body);
      const { remittance } = await recordRemittance({ collections, now: () => systemClock.now(), newAuditId }, staffOf(info), clientId, request);
      return jsonResponse(201, remittanceView(remittance));
    }
    if (event.routeKey === 'POST /api/v2/admin/clients/{id}/remittances/reverse') {
      const request = parseInput(ReverseRemittanceRequest, event.body);
      if (!(await collections.clientExists(clientId))) throw new NotFoundError('client_not_found', 'No client has this id.', 'id');
      const remittance = await reverseRemittance({ collections, now: () => systemClock.now(), newAuditId }, staffOf(info), clientId, request);
      return jsonResponse(200, remittanceView(remittance));
    }
    if (event.routeKey === 'POST /api/v2/admin/clients/{id}/suspend') {
      const { reason } = parseInput(SuspendRequest, event.body);
      return jsonResponse(200, standingView(await suspendClient(standings, staffOf(info), clientId, reason)));
    }
    if (event.routeKey === 'POST /api/v2/admin/clients/{id}/resume') {
      parseInput(EmptyRequest, event.body);
      return jsonResponse(200, standingView(await resumeClient(standings, staffOf(info), clientId)));
    }
    if (event.routeKey === 'GET /api/v2/admin/clients/{id}/statements/{period}') {
      const { period } = parseInput(StatementPath, { period: event.pathParameters?.period ?? '' });
      if (!(await collections.clientExists(clientId))) throw new NotFoundError('client_not_found', 'No client has this id.', 'id');
      return jsonResponse(200, statementView(await readStatement({ collections, clock: systemClock }, clientId, period)));
    }
    const query = parseInput(ListRemittancesQuery, event.queryStringParameters ?? {});
    const scope = { client_id: clientId };
    const cursors = {
      seal: (position: string) => sealCursor('admin:remittances', scope, position),
      open: (cursor: string) => openCursor('admin:remittances', scope, cursor),
    };
    const page = await listRemittances({ collections, cursors }, clientId, query);
    return jsonResponse(200, { data: page.remittances.map(remittanceView), has_more: page.nextCursor !== undefined, next_cursor: page.nextCursor ?? null });
  },
  { jsonBody: 'optional', staff: routeRoles('admin-collections') },
);
