/** One page of a cursor list (orders, policies, events, ledger…). */
export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Every element of a cursor list, page after page, following `next_cursor` to the end. */
export async function* paginate<T>(page: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const { data, has_more, next_cursor } = await page(cursor);
    yield* data;
    if (!has_more || next_cursor === null) return;
    cursor = next_cursor;
  }
}
