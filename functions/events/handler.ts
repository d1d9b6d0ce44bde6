import { openCursor, sealCursor } from '#shared/platform/keys/cursors.js';
import { redeliver } from '#shared/webhooks/dispatch-webhooks.js';
import { listEvents } from '#shared/webhooks/list-events.js';
import { NotFoundError } from '#shared/platform/errors.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { clientIdOf, httpHandler } from '#shared/platform/http/middleware.js';
import { EmptyRequest } from '#shared/platform/http/schemas.js';
import { EVENT_ID, ListEventsQuery } from '#shared/webhooks/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { webhookDeps } from '#shared/webhooks/webhook-deps.js';
import type { Delivery } from '#shared/webhooks/ports.js';
import type { WebhookEvent } from '#shared/webhooks/webhook-events.js';

const deps = webhookDeps();
const listDeps = { eventLog: deps.eventLog, cursors: { seal: sealCursor, open: openCursor } };
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
      const { events, nextCursor } = await listEvents(listDeps, clientId, query);
      return jsonResponse(200, { data: events.map((e) => view(e)), has_more: nextCursor !== undefined, next_cursor: nextCursor ?? null });
    }
    const id = event.pathParameters?.id ?? '';
    if (!EVENT_ID.test(id)) throw notFound();
    if (event.routeKey === 'GET /api/v2/events/{id}') {
      const kept = await deps.eventLog.event(clientId, id);
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
