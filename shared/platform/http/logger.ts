import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The one structured logger. Log lines carry request_id and client_id (appended per request);
 * bodies, headers, tokens and keys are never logged. Locally POWERTOOLS_LOG_LEVEL controls it.
 */
export const logger = new Logger({ serviceName: 'order-protection' });
