/**
 * The customer's languages, shared by the widget (widget.ts) and the claim page (pages/scripts/claim.ts),
 * with no DOM: which of our locales a customer gets, how a catalogue's `{placeholder}` texts and
 * plurals are filled in, and which way a locale's text runs. The catalogues themselves are
 * widget/locales/<tag>.json (docs/locales.md); English is built into each bundle, the others are
 * fetched one at a time (widget/locale-files.ts names the files).
 */
export const LOCALES = ['en', 'en-GB', 'de', 'fr', 'es', 'it', 'nl', 'pt-BR', 'sv', 'ja', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];
/** A catalogue: key → text with `{placeholder}`s; a plural is one key per CLDR category, `key#one`, `key#other`, … */
export type Catalogue = Record<string, string>;
export type Values = Record<string, string | number>;

/** Each locale named in its own language (the claim page's language switch): a name, never translated. */
export const LANGUAGE_NAMES: Record<Locale, string> = {
  en: 'English',
  'en-GB': 'English (UK)',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  nl: 'Nederlands',
  'pt-BR': 'Português (Brasil)',
  sv: 'Svenska',
  ja: '日本語',
  ar: 'العربية',
};

const language = (tag: string): string => tag.toLowerCase().split('-')[0]!;

/**
 * The locale for the tags a customer asked for, in order (a page's `?lang=`, the merchant's
 * `locale`, then `navigator.languages`): for each tag its exact locale (en-GB, pt-BR), else its
 * language's own (pt → pt-BR, en-US → en, de-AT → de); the first that matches wins; else English.
 * `_` is read as `-` (pt_BR); case does not matter; empty and malformed tags are skipped.
 */
export function negotiate(requested: readonly (string | null | undefined)[]): Locale {
  for (const raw of requested) {
    const tag = raw?.trim().replace(/_/g, '-').toLowerCase();
    if (!tag) continue;
    const exact = LOCALES.find((locale) => locale.toLowerCase() === tag);
    if (exact) return exact;
    const own = LOCALES.find((locale) => language(locale) === language(tag));
    if (own) return own;
  }
  return 'en';
}

/** A locale whose script runs right to left. */
export const isRightToLeft = (locale: string): boolean => ['ar', 'fa', 'he', 'ur'].includes(language(locale));

/**
 * An amount as it sits in a sentence of `locale`: right to left, isolated as a left-to-right run
 * (U+2066 … U+2069), so that Intl's "155.50 US$" stays whole inside Arabic text instead of its "$"
 * straying to the sentence's end; left to right, as it is.
 */
export const isolate = (locale: string, text: string): string => (isRightToLeft(locale) ? `\u2066${text}\u2069` : text);

/**
 * The tag Intl formats with for `locale`: the first tag asked for that is of the same language and
 * that Intl knows (de-AT's € 13,22 for a customer asking de-AT, with the texts of de), else `locale`.
 */
export function formatLocale(requested: readonly (string | null | undefined)[], locale: Locale): string {
  for (const tag of requested) {
    if (!tag || language(tag.replace(/_/g, '-')) !== language(locale)) continue;
    try {
      const [supported] = Intl.NumberFormat.supportedLocalesOf([tag.replace(/_/g, '-')]);
      if (supported) return supported;
    } catch {
      // not a well-formed tag: the next one
    }
  }
  return locale;
}

/** `{name}` in `template` → `values.name` (a placeholder without a value stays as it is). */
export const fill = (template: string, values: Values = {}): string =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));

/** The `{placeholder}` names of a text, sorted. */
export const placeholders = (template: string): string[] => [...new Set(Array.from(template.matchAll(/\{(\w+)\}/g), (m) => m[1]!))].sort();

export interface Translator {
  locale: Locale;
  /** The tag amounts and dates are formatted with (Intl). */
  format: string;
  /** The text of `key`, its placeholders filled. */
  t(key: string, values?: Values): string;
  /** The plural text of `key` for `count` (Intl.PluralRules in the locale), with `{count}` written by Intl.NumberFormat. */
  plural(key: string, count: number, values?: Values): string;
  /** A number as the locale writes it. */
  number(value: number, options?: Intl.NumberFormatOptions): string;
}

/**
 * A translator over `catalogue` (the locale's), falling back key by key to `fallback` (English),
 * then to the key itself (a key missing everywhere shows as itself rather than as nothing).
 */
export function translator(locale: Locale, catalogue: Catalogue, fallback: Catalogue, format: string = locale): Translator {
  const text = (key: string): string | undefined => (Object.hasOwn(catalogue, key) ? catalogue[key] : Object.hasOwn(fallback, key) ? fallback[key] : undefined);
  const number = (value: number, options?: Intl.NumberFormatOptions) => new Intl.NumberFormat(format, options).format(value);
  let rules: Intl.PluralRules | undefined;
  return {
    locale,
    format,
    number,
    t: (key, values) => fill(text(key) ?? key, values),
    plural(key, count, values = {}) {
      rules ??= new Intl.PluralRules(locale);
      const form = text(`${key}#${rules.select(count)}`) ?? text(`${key}#other`) ?? key;
      return fill(form, { count: number(count), ...values });
    },
  };
}

/** How long a catalogue file may take before the page goes on in English. */
export const CATALOGUE_TIMEOUT_MS = 4000;

/** A locale's catalogue file, fetched within CATALOGUE_TIMEOUT_MS; undefined when it cannot be had (English it is). */
export async function fetchCatalogue(url: string | URL): Promise<Catalogue | undefined> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), CATALOGUE_TIMEOUT_MS);
  try {
    const res = await fetch(url, { signal: abort.signal });
    const data: unknown = res.ok ? await res.json() : undefined;
    return data && typeof data === 'object' ? (data as Catalogue) : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
