import * as v from 'valibot';
import { loadConfig } from '#shared/platform/config.js';
import { conversionReport } from '#shared/conversion/conversion.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { clientIdOf, httpHandler } from '#shared/platform/http/middleware.js';
import { CalendarDate } from '#shared/platform/http/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoMetricsStore } from '#shared/conversion/dynamo-metrics-store.js';

const config = loadConfig();
const metrics = new DynamoMetricsStore(sharedDocumentClient(), config.metricsTableName);
const MAX_DAYS = 366;
const DAY_MS = 86_400_000;

const ConversionQuery = v.pipe(
  v.strictObject({ from: v.optional(CalendarDate), to: v.optional(CalendarDate) }),
  v.transform(({ from, to }) => {
    const end = to ?? new Date().toISOString().slice(0, 10);
    return { to: end, from: from ?? new Date(Date.parse(end) - 29 * DAY_MS).toISOString().slice(0, 10) };
  }),
  v.forward(
    v.check(({ from, to }) => from <= to, 'must not be after to'),
    ['from'],
  ),
  v.forward(
    v.check(({ from, to }) => (Date.parse(to) - Date.parse(from)) / DAY_MS < MAX_DAYS, `must be at most ${MAX_DAYS} days before to`),
    ['from'],
  ),
);

/** GET /api/v2/metrics/conversion?from=&to=: opt-ins vs opt-outs per UTC day (default: last 30 days). */
export const handler = httpHandler(
  async (event, info) => {
    const { from, to } = parseInput(ConversionQuery, event.queryStringParameters ?? {});
    const counts = await metrics.dailyCounts(clientIdOf(info), from, to);
    return jsonResponse(200, conversionReport(from, to, counts));
  },
  { authenticated: true },
);
