import type { EventLog, EventPage } from './ports.js';
import type { ListCursors } from '../platform/list-cursors.js';
import type { LoggedEventType } from './webhook-events.js';

/**
 * GET /events: the delivery log, newest first, a page at a time, optionally of one type and of
 * one delivery outcome; the cursor is bound to the client and the filters like the other lists'.
 */
export interface ListEventsQuery {
  limit: number;
  cursor?: string;
  type?: LoggedEventType;
  delivery_success?: boolean;
}

export interface ListEventsDeps {
  eventLog: Pick<EventLog, 'list'>;
  cursors: ListCursors;
}

export async function listEvents(
  deps: ListEventsDeps,
  clientId: string,
  query: ListEventsQuery,
): Promise<{ events: EventPage['events']; nextCursor?: string }> {
  const filters = { list: 'events', type: query.type, delivery_success: query.delivery_success === undefined ? undefined : String(query.delivery_success) };
  const after = query.cursor === undefined ? undefined : await deps.cursors.open(clientId, filters, query.cursor);
  const page = await deps.eventLog.list(clientId, { after, type: query.type, deliverySuccess: query.delivery_success, limit: query.limit });
  return { events: page.events, ...(page.next === undefined ? {} : { nextCursor: await deps.cursors.seal(clientId, filters, page.next) }) };
}
