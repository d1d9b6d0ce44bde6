import { describe, expect, it } from 'vitest';
import { fill, formatLocale, isolate, isRightToLeft, LOCALES, negotiate, placeholders, translator } from './i18n.js';

describe('the customer’s locale', () => {
  it('takes the exact tag, else the language’s own, in the order asked, else English', () => {
    expect(negotiate(['en-GB'])).toBe('en-GB');
    expect(negotiate(['pt'])).toBe('pt-BR');
    expect(negotiate(['pt-PT'])).toBe('pt-BR');
    expect(negotiate(['en-US'])).toBe('en');
    expect(negotiate(['en-AU'])).toBe('en');
    expect(negotiate(['de-AT'])).toBe('de');
    expect(negotiate(['PT_br'])).toBe('pt-BR');
    expect(negotiate(['ar-EG'])).toBe('ar');
    expect(negotiate(['ja-JP'])).toBe('ja');
    // the first tag that matches wins: an unknown one is passed over
    expect(negotiate(['pl-PL', 'sv-SE', 'de'])).toBe('sv');
    expect(negotiate([undefined, null, '', '  ', 'fr-CA'])).toBe('fr');
    expect(negotiate(['pl', 'zh-Hant'])).toBe('en');
    expect(negotiate([])).toBe('en');
    for (const locale of LOCALES) expect(negotiate([locale])).toBe(locale);
  });

  it('formats with the tag asked for when it is of the locale’s language, else with the locale', () => {
    expect(formatLocale(['de-AT', 'en'], 'de')).toBe('de-AT');
    expect(formatLocale(['en-US'], 'en')).toBe('en-US');
    expect(formatLocale(['pl', 'fr-CH'], 'fr')).toBe('fr-CH');
    expect(formatLocale(['de-AT'], 'en')).toBe('en'); // the German file could not be loaded: English, written as English
    expect(formatLocale(['de-!!'], 'de')).toBe('de');
  });

  it('runs Arabic right to left, the others left to right', () => {
    expect(LOCALES.filter(isRightToLeft)).toEqual(['ar']);
    expect(isRightToLeft('ar-EG')).toBe(true);
    expect(isolate('ar', '155.50 US$')).toBe('\u2066155.50 US$\u2069'); // one left-to-right run inside Arabic text
    expect(isolate('de', '155,50 $')).toBe('155,50 $');
  });
});

describe('texts', () => {
  it('fills placeholders, leaving one without a value as it is', () => {
    expect(fill('{a} and {b}', { a: 1 })).toBe('1 and {b}');
    expect(placeholders('{b} {a} {b}')).toEqual(['a', 'b']);
  });

  it('falls back key by key to English, then to the key', () => {
    const t = translator('de', { hello: 'Hallo {name}' }, { hello: 'Hello {name}', bye: 'Bye' });
    expect(t.t('hello', { name: 'Ada' })).toBe('Hallo Ada');
    expect(t.t('bye')).toBe('Bye');
    expect(t.t('nothing')).toBe('nothing');
  });

  it('picks the plural form by Intl.PluralRules and writes the count by Intl.NumberFormat', () => {
    const english = { 'tickets#one': '{count} ticket', 'tickets#other': '{count} tickets' };
    expect(translator('en', english, english).plural('tickets', 1)).toBe('1 ticket');
    expect(translator('en', english, english).plural('tickets', 1200)).toBe('1,200 tickets');
    const arabic = {
      'tickets#zero': 'لا تذاكر',
      'tickets#one': 'تذكرة واحدة',
      'tickets#two': 'تذكرتان',
      'tickets#few': '{count} تذاكر',
      'tickets#many': '{count} تذكرة',
      'tickets#other': '{count} تذكرة',
    };
    const ar = translator('ar', arabic, english);
    expect([0, 1, 2, 3, 11, 100].map((n) => ar.plural('tickets', n))).toEqual([
      'لا تذاكر',
      'تذكرة واحدة',
      'تذكرتان',
      `${ar.number(3)} تذاكر`,
      `${ar.number(11)} تذكرة`,
      `${ar.number(100)} تذكرة`,
    ]);
    const ja = translator('ja', { 'tickets#other': 'チケット{count}枚' }, english);
    expect(ja.plural('tickets', 1)).toBe('チケット1枚');
  });
});
