import type { Cancellation } from './cancellation.js';

/** The kept previews (cancellations), each the client's own. */
export interface CancellationStore {
  /** Keeps a new preview (its id is new: never overwrites). */
  save(cancellation: Cancellation): Promise<void>;
  /** The client's cancellation with this id, read consistently; undefined when there is none. */
  get(clientId: string, cancellationId: string): Promise<Cancellation | undefined>;
}
