import { createServer, type IncomingHttpHeaders } from 'node:http';

/**
 * A merchant's webhook receiver on localhost for the webhook suites: it keeps every delivery
 * (headers and raw body, as a receiver verifies them) and answers each with the next status of
 * `answers` (200 once they run out).
 */
export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  /** The path it was sent to (an endpoint's URL may name its shop: `…/hooks/<client>`). */
  url: string;
}

export async function startReceiver() {
  const received: Delivery[] = [];
  const answers: number[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body, url: req.url ?? '' });
      res.statusCode = answers.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`,
    received,
    /** Status codes to answer the next deliveries with, in turn. */
    answers,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
