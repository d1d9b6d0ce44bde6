import { lookup } from 'node:dns/promises';
import { newWebhookSecret } from '#shared/webhooks/webhook-signatures.js';
import { loadConfig } from '#shared/platform/config.js';
import { prefixedId } from '#shared/platform/ids.js';
import { systemClock } from '#shared/platform/clock.js';
import {
  createEndpoint,
  deleteEndpoint,
  endpointNotFound,
  rotateSecret,
  sendTestEvent,
  type EndpointDeps,
  type WebhookEndpoint,
} from '#shared/webhooks/webhook-endpoints.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { clientIdOf, httpHandler } from '#shared/platform/http/middleware.js';
import { CreateWebhookEndpointRequest, WEBHOOK_ENDPOINT_ID } from '#shared/webhooks/schemas.js';
import { EmptyRequest } from '#shared/platform/http/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoWebhookEndpoints } from '#shared/webhooks/dynamo-webhook-endpoints.js';
import { DynamoDeliveryQueue } from '#shared/webhooks/dynamo-delivery-queue.js';
import { DynamoEventLog } from '#shared/webhooks/dynamo-event-log.js';
import { cancelPendingDeliveries } from '#shared/webhooks/dispatch-webhooks.js';
import { webhookUrlPolicy } from '#shared/webhooks/webhook-url-policy.js';

const config = loadConfig();
const endpoints = new DynamoWebhookEndpoints(sharedDocumentClient(), config.tableName);
const stores = {
  eventLog: new DynamoEventLog(sharedDocumentClient(), config.tableName),
  deliveries: new DynamoDeliveryQueue(sharedDocumentClient(), config.tableName),
};
const deps = (): EndpointDeps => ({
  endpoints,
  cancelPending: (clientId, endpointId) => cancelPendingDeliveries(stores, clientId, endpointId, systemClock.now()),
  clock: systemClock,
  newId: () => prefixedId('we'),
  newEventId: () => prefixedId('evt'),
  newSecret: newWebhookSecret,
  // npm start sets WEBHOOK_URLS=local (http://localhost receivers, not on its own ports); deployed, the strict rules.
  urlPolicy: webhookUrlPolicy(),
  resolve: async (host) => (await lookup(host, { all: true, verbatim: true })).map((answer) => answer.address),
});

/** An endpoint as the API shows it: the secret only in the answers that create or rotate it. */
const view = (endpoint: WebhookEndpoint, withSecret = false) => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events,
  description: endpoint.description,
  status: endpoint.status,
  created: endpoint.created,
  ...(withSecret ? { secret: endpoint.secrets[0]!.secret } : {}),
});

/** /api/v2/webhook_endpoints: create (201, the secret shown once), list, read, delete (204), rotate_secret, enable, test (202). */
export const handler = httpHandler(
  async (event, info) => {
    const clientId = clientIdOf(info);
    const id = event.pathParameters?.id;
    if (id !== undefined && !WEBHOOK_ENDPOINT_ID.test(id)) throw endpointNotFound();
    switch (event.routeKey) {
      case 'POST /api/v2/webhook_endpoints':
        return jsonResponse(201, view(await createEndpoint(deps(), clientId, parseInput(CreateWebhookEndpointRequest, event.body)), true));
      case 'GET /api/v2/webhook_endpoints':
        return jsonResponse(200, { data: (await endpoints.list(clientId)).map((endpoint) => view(endpoint)) });
      case 'GET /api/v2/webhook_endpoints/{id}': {
        const endpoint = await endpoints.get(clientId, id!);
        if (!endpoint) throw endpointNotFound();
        return jsonResponse(200, view(endpoint));
      }
      case 'DELETE /api/v2/webhook_endpoints/{id}':
        await deleteEndpoint(deps(), clientId, id!);
        return { statusCode: 204 };
      case 'POST /api/v2/webhook_endpoints/{id}/test':
        parseInput(EmptyRequest, event.body);
        return jsonResponse(202, await sendTestEvent(deps(), clientId, id!));
      case 'POST /api/v2/webhook_endpoints/{id}/enable': {
        parseInput(EmptyRequest, event.body);
        const enabled = await endpoints.enable(clientId, id!);
        if (!enabled) throw endpointNotFound();
        return jsonResponse(200, view(enabled));
      }
      default: // POST /api/v2/webhook_endpoints/{id}/rotate_secret
        parseInput(EmptyRequest, event.body);
        return jsonResponse(200, view(await rotateSecret(deps(), clientId, id!), true));
    }
  },
  { jsonBody: 'optional', authenticated: true },
);
