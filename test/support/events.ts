/** Tests build their v2 events with the same factory the local server uses. */
export { apiEvent, matchRoute, type ApiEvent, type ApiEventInput } from '../../scripts/local/api-events.js';
