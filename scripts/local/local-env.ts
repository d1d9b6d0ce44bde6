/**
 * `npm start`'s environment defaults, set before any module of the service is loaded (this is the
 * local server's first import): Powertools reads some of them once, when its objects are made.
 * EMF metric lines are for CloudWatch, not a terminal; the terminal shows warnings and errors;
 * webhook endpoints may be http://localhost receivers here (never deployed).
 */
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
process.env.WEBHOOK_URLS ??= 'local';

// s3rver (the local S3 of the bordereaux) still calls a response API Node deprecated (DEP0066):
// its one warning per start is noise to whoever reads the terminal. Every other warning prints as before.
const printWarning = process.listeners('warning');
process.removeAllListeners('warning');
process.on('warning', (warning: Error & { code?: string }) => {
  if (warning.code !== 'DEP0066') for (const print of printWarning) print(warning);
});
