/** A changed record of a table, as the stream gives it (unmarshalled). */
export interface RecordChange {
  /** The stream record's id: unique per change, the same when the stream delivers it again. */
  changeId: string;
  kind: 'INSERT' | 'MODIFY' | 'REMOVE';
  at: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  /** The order the record belongs to, when it is one of an order's records (its key says so). */
  order?: { client_id: string; order_id: string };
  /** Where the change sits in its stream shard: the sequence number padded to 40 digits, so positions compare as text. */
  position?: string;
}
