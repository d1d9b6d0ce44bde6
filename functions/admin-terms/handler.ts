import * as v from 'valibot';
import { loadConfig } from '#shared/platform/config.js';
import { systemClock } from '#shared/platform/clock.js';
import { openCursor, sealCursor } from '#shared/platform/keys/cursors.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { httpHandler, staffOf } from '#shared/platform/http/middleware.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { listPage } from '#shared/platform/http/schemas.js';
import { routeRoles } from '#shared/platform/functions.js';
import { prefixedIdPattern } from '#shared/platform/ids.js';
import { NotFoundError } from '#shared/platform/errors.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { newAuditId } from '#shared/identity/index.js';
import { listTerms, previewTerms, publishTerms, PublishTermsRequest, termsView } from '#shared/terms/index.js';
import { Currency } from '#shared/platform/http/schemas.js';
import { DynamoTermsStore } from '#shared/terms/dynamo-terms-store.js';
import { idempotent } from '#shared/platform/http/idempotency.js';
import { DynamoIdempotencyStore } from '#shared/platform/dynamo/idempotency-store.js';

const config = loadConfig();
const store = new DynamoTermsStore(sharedDocumentClient(), config.tableName);
const idempotency = new DynamoIdempotencyStore(sharedDocumentClient(), config.tableName);
const Query = v.strictObject({ limit: listPage.limit, cursor: listPage.cursor });
const PreviewQuery = v.strictObject({ currency: v.optional(Currency, 'USD') });
const CLIENT_ID = prefixedIdPattern('cl');

/**
 * A client's terms (role `finance`): POST /api/v2/admin/clients/{id}/terms publishes a version
 * (201), GET lists them newest first with the number of the one in force, and POST …/terms/preview
 * prices sample tickets under the version in force and the one proposed (nothing written).
 */
export const handler = httpHandler(
  async (event, info) => {
    const clientId = event.pathParameters?.id ?? '';
    // An id that cannot be a client's is the same 404 as an unknown one.
    if (!CLIENT_ID.test(clientId)) throw new NotFoundError('client_not_found', 'No client has this id.', 'id');
    if (event.routeKey === 'POST /api/v2/admin/clients/{id}/terms/preview') {
      const { currency } = parseInput(PreviewQuery, event.queryStringParameters ?? {});
      const request = parseInput(PublishTermsRequest, event.body);
      return jsonResponse(200, await previewTerms({ store }, clientId, request, currency, systemClock.now()));
    }
    if (event.routeKey === 'POST /api/v2/admin/clients/{id}/terms') {
      const request = parseInput(PublishTermsRequest, event.body);
      // An Idempotency-Key (the publisher's own) answers a retry with the version the first request published.
      return idempotent(idempotency, event, info, async () =>
        jsonResponse(201, termsView(await publishTerms({ store, now: () => systemClock.now(), newAuditId }, staffOf(info), clientId, request))),
      );
    }
    const query = parseInput(Query, event.queryStringParameters ?? {});
    // Cursors are sealed like every list cursor, under a scope of their own and for this client only.
    const scope = { client_id: clientId };
    const cursors = {
      seal: (position: string) => sealCursor('admin:terms', scope, position),
      open: (cursor: string) => openCursor('admin:terms', scope, cursor),
    };
    const page = await listTerms({ store, cursors }, clientId, query, systemClock.now());
    return jsonResponse(200, {
      data: page.versions.map(termsView),
      in_force: page.inForce ?? null,
      has_more: page.nextCursor !== undefined,
      next_cursor: page.nextCursor ?? null,
    });
  },
  { jsonBody: 'optional', staff: routeRoles('admin-terms') },
);
