/**
 * The console's tables on a phone: a table of class `stack` (console-page.ts) shows a card a row,
 * each cell under its column's name. The name comes from the table's header, copied into each body
 * cell's `data-label` (which CSS shows before the cell) whenever rows are added; a header that is
 * only for screen readers (an actions column) gives no label.
 */
export function labelCells(table: HTMLTableElement): void {
  const heads = Array.from(table.tHead?.rows[0]?.cells ?? []).map((cell) => (cell.querySelector('.vh') ? '' : (cell.textContent ?? '').trim()));
  for (const body of Array.from(table.tBodies))
    for (const row of Array.from(body.rows)) Array.from(row.cells).forEach((cell, index) => (cell.dataset.label = heads[index] ?? ''));
}
