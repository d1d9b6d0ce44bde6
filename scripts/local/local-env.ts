/**
 * `npm start`'s environment defaults, set before any module of the service is loaded (this is the
 * local server's first import): Powertools reads some of them once, when its objects are made.
 * EMF metric lines are for CloudWatch, not a terminal; the terminal shows warnings and errors;
 * webhook endpoints may be http://localhost receivers here (never deployed).
 */
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
process.env.WEBHOOK_URLS ??= 'local';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
