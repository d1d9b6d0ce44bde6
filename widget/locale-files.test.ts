import { describe, expect, it } from 'vitest';
import { catalogueProblems, localeBuild, readCatalogue, surfaceOf } from './locale-files.js';
import { LOCALES } from './src/i18n.js';

/** The catalogues (widget/locales/<tag>.json) against English: docs/locales.md. */
const english = readCatalogue('en');

describe('the catalogues', () => {
  it.each(LOCALES.filter((locale) => locale !== 'en'))('%s has exactly English’s keys, placeholders and its own plural forms', (locale) => {
    expect(catalogueProblems(locale, readCatalogue(locale), english)).toEqual([]);
  });

  it('English holds every plural’s forms and nothing empty', () => {
    expect(catalogueProblems('en', english, english)).toEqual([]);
  });

  it('finds a missing key, an extra key, a lost or added placeholder and a wrong plural form', () => {
    const german = { ...readCatalogue('de') };
    delete german['widget.legend'];
    german['widget.extra'] = 'Extra';
    german['widget.yes'] = 'Ja, schützen';
    german['widget.no'] = 'Nein {premium}';
    expect(catalogueProblems('de', german, english)).toEqual(
      expect.arrayContaining([
        'de: lacks the key widget.legend',
        'de: has the key widget.extra, which English has not',
        'de: widget.yes lacks the placeholder {premium}',
        'de: widget.no adds the placeholder {premium}, which English has not',
      ]),
    );
    const plurals = { 'claim.x#one': 'one', 'claim.x#other': '{count} x' };
    expect(catalogueProblems('ja', { 'claim.x#one': 'ひとつ' }, plurals)).toEqual([
      'ja: claim.x#one is a plural form ja does not use (other)',
      'ja: claim.x lacks its plural form #other',
    ]);
    expect(catalogueProblems('fr', { 'claim.x#one': 'un', 'claim.x#many': '{count} x', 'claim.x#other': 'x' }, plurals)).toEqual([
      'fr: claim.x#other lacks the placeholder {count}',
    ]);
  });

  it('makes one small file per locale and surface, named by its content, English built in', () => {
    const build = localeBuild();
    expect(Object.keys(build.widget.files).sort()).toEqual(LOCALES.filter((l) => l !== 'en').sort());
    for (const [locale, path] of Object.entries(build.widget.files)) {
      expect(path).toMatch(new RegExp(`^locales/widget\\.${locale}\\.[0-9a-f]{16}\\.json$`));
      expect(JSON.parse(build.files[path]!)).toEqual(surfaceOf(readCatalogue(locale as 'de'), 'widget'));
    }
    for (const path of Object.values(build.claim.files)) expect(path).toMatch(/^locales\/claim\.[a-zA-Z-]+\.[0-9a-f]{16}\.json$/);
    expect(build.widget.english).toEqual(surfaceOf(english, 'widget'));
    expect(build.widget.loading.ja).toBe(readCatalogue('ja')['widget.loading']);
    expect(Object.keys(build.files)).toHaveLength(2 * (LOCALES.length - 1));
  });
});
