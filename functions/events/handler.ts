import { openCursor, sealCursor } from '../../shared/auth/cursors.js';
import { redeliver } from '../../shared/domain/dispatch-webhooks.js';
import { NotFoundError } from '../../shared/errors.js';
import { jsonResponse } from '../../shared/http/envelope.js';
import { clientIdOf, httpHandler } from '../../shared/http/middleware.js';
import { EmptyRequest, EVENT_ID, ListEventsQuery } from '../../shared/http/schemas.js';
import { parseInput } from '../../shared/http/validation.js';
import { webhookDeps } from '../../shared/webhooks.js';
import type { Delivery } from '../../shared/domain/dispatch-webhooks.js';
import type { WebhookEvent } from '../../shared/domain/webhook-events.js';

const deps = webhookDeps();
const notFound = () => new NotFoundError('event_not_found', 'No event with this id.', 'id');

/** An event as the delivery log shows it: its body, whether it was delivered, and every attempt. */
const view = (event: WebhookEvent & { delivery_success?: boolean | null }, deliveries?: readonly Delivery[]) => ({
  id: event.id,
  type: event.type,
  created: event.created,
  data: event.data,
  delivery_success: event.delivery_success ?? null,
  ...(deliveries
    ? {
        deliveries: deliveries.map((d) => ({
          endpoint_id: d.endpoint_id,
          status: d.status,
          next_attempt_at: d.status === 'pending' ? (d.next_at ?? null) : null,
        })),
        attempts: deliveries.flatMap((d) => d.attempts).sort((a, b) => a.at.localeCompare(b.at)),
      }
    : {}),
});

/** The delivery log: GET /api/v2/events, GET /api/v2/events/{id}, POST /api/v2/events/{id}/redeliver (202). */
export const handler = httpHandler(
  async (event, info) => {
    const clientId = clientIdOf(info);
    if (event.routeKey === 'GET /api/v2/events') {
      const query = parseInput(ListEventsQuery, event.queryStringParameters ?? {});
      const filters = { type: query.type, delivery_success: query.delivery_success === undefined ? undefined : String(query.delivery_success) };
      const after = query.cursor === undefined ? undefined : await openCursor(clientId, { list: 'events', ...filters }, query.cursor);
      const page = await deps.deliveries.listEvents(clientId, { after, type: query.type, deliverySuccess: query.delivery_success, limit: query.limit });
      const nextCursor = page.next === undefined ? null : await sealCursor(clientId, { list: 'events', ...filters }, page.next);
      return jsonResponse(200, { data: page.events.map((e) => view(e)), has_more: nextCursor !== null, next_cursor: nextCursor });
    }
    const id = event.pathParameters?.id ?? '';
    if (!EVENT_ID.test(id)) throw notFound();
    if (event.routeKey === 'GET /api/v2/events/{id}') {
      const kept = await deps.deliveries.event(clientId, id);
      if (!kept) throw notFound();
      return jsonResponse(200, view(kept.event, kept.deliveries));
    }
    parseInput(EmptyRequest, event.body);
    const queued = await redeliver(deps, clientId, id);
    if (queued === undefined) throw notFound();
    return jsonResponse(202, { id, endpoints: queued });
  },
  { jsonBody: 'optional', authenticated: true },
);
