import * as v from 'valibot';
import { listPage, OptionalText } from '../platform/http/schemas.js';
import { EVENT_TYPES, LOGGED_EVENT_TYPES } from './webhook-events.js';

/** The webhooks' request schemas and path ids. */
/** POST /webhook_endpoints: a URL (checked against the URL rules by the use case), the events (all when absent), a note. */
export const CreateWebhookEndpointRequest = v.strictObject({
  url: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(2048, 'must be at most 2048 characters')),
  events: v.optional(
    v.pipe(
      v.array(v.picklist(EVENT_TYPES, `must be one of ${EVENT_TYPES.join(', ')}`)),
      v.minLength(1, 'must name at least one event type (leave it out for all)'),
      v.maxLength(EVENT_TYPES.length * 2, `must name at most ${EVENT_TYPES.length * 2} event types`),
    ),
  ),
  description: OptionalText,
});

/** A webhook endpoint's id from a path: anything else names no endpoint. */
export const WEBHOOK_ENDPOINT_ID = /^we_[0-9A-Za-z]{24}$/;

/** GET /events?type&delivery_success&limit&cursor. */
export const ListEventsQuery = v.strictObject({
  limit: listPage.limit,
  cursor: listPage.cursor,
  type: v.optional(v.picklist(LOGGED_EVENT_TYPES, `must be one of ${LOGGED_EVENT_TYPES.join(', ')}`)),
  delivery_success: v.optional(
    v.pipe(
      v.picklist(['true', 'false'], 'must be true or false'),
      v.transform((text) => text === 'true'),
    ),
  ),
});

/** A webhook event's id from a path: anything else names no event. */
export const EVENT_ID = /^evt_[A-Za-z0-9_-]{24}$/;
