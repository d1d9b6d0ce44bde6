import { buildWidget } from '../../widget/build.js';
import { localeBuild } from '../../widget/locale-files.js';
import type { Recorder } from '../report.js';

/** What a shopper's browser downloads for the widget in one language: widget.js and that language's catalogue. */
export const WIDGET_WITH_LOCALE_GOAL_BYTES = 15 * 1024;

/**
 * 12 · The widget in any language: widget.js as built (English built in, minified), the largest of
 * its locale files (`/locales/widget.<tag>.<hash>.json`, the only one a shopper fetches besides it),
 * and their sum, held to 15 KB. Bytes as served, before compression.
 */
export async function measureWidgetLocales(record: Recorder): Promise<void> {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB (${bytes} B)`;
  const widget = Buffer.byteLength(await buildWidget());
  const build = localeBuild();
  const sizes = Object.entries(build.widget.files).map(([locale, path]) => [locale, Buffer.byteLength(build.files[path]!)] as const);
  const [largestLocale, largest] = sizes.reduce((a, b) => (b[1] > a[1] ? b : a));
  record({ subject: 'widget.js (English built in)', figure: kb(widget), goal: 'reported', ok: true });
  record({ subject: `largest widget locale file (${largestLocale}, of ${sizes.length})`, figure: kb(largest), goal: 'reported', ok: true });
  record({
    subject: 'widget.js + one locale file',
    figure: kb(widget + largest),
    goal: `≤ ${kb(WIDGET_WITH_LOCALE_GOAL_BYTES)}`,
    ok: widget + largest <= WIDGET_WITH_LOCALE_GOAL_BYTES,
  });
}
