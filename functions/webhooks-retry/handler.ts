import { retryDue } from '../../shared/domain/dispatch-webhooks.js';
import { webhookDeps } from '../../shared/webhooks.js';

const deps = webhookDeps();

/** Every minute (EventBridge; npm start: every second): the next attempt of each webhook delivery that is due. */
export const handler = async (): Promise<{ attempted: number }> => ({ attempted: await retryDue(deps) });
