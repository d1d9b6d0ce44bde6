import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCALES, placeholders, type Catalogue, type Locale } from './src/i18n.js';

/**
 * The catalogues on the build's side (Node): widget/locales/<tag>.json, one per locale, each with
 * the widget's keys (`widget.…`) and the claim page's (`claim.…`). English is built into the widget
 * and the claim page's script (esbuild `define`); every other locale becomes two small files, one per
 * surface, named by their content's hash so they can be cached for good:
 * `/locales/widget.<tag>.<hash>.json` (next to /widget.js: the widget fetches it relative to its own
 * script) and `/locales/claim.<tag>.<hash>.json`. Their names are baked into the bundles, so a new
 * catalogue is a new name and an old page keeps the file it names. docs/locales.md.
 */
const here = dirname(fileURLToPath(import.meta.url));
export const CATALOGUE_DIRECTORY = join(here, 'locales');
export const SURFACES = ['widget', 'claim'] as const;
export type Surface = (typeof SURFACES)[number];

export const readCatalogue = (locale: Locale, directory = CATALOGUE_DIRECTORY): Catalogue =>
  JSON.parse(readFileSync(join(directory, `${locale}.json`), 'utf8')) as Catalogue;

/** One surface's keys of a catalogue, without their `widget.` / `claim.` prefix. */
export function surfaceOf(catalogue: Catalogue, surface: Surface): Catalogue {
  const prefix = `${surface}.`;
  return Object.fromEntries(Object.entries(catalogue).flatMap(([key, text]) => (key.startsWith(prefix) ? [[key.slice(prefix.length), text]] : [])));
}

/** A plural key's base and form: `claim.tickets#one` → [`claim.tickets`, `one`]; a plain key has no form. */
const split = (key: string): [string, string | undefined] => {
  const at = key.indexOf('#');
  return at < 0 ? [key, undefined] : [key.slice(0, at), key.slice(at + 1)];
};

/**
 * What is wrong with `catalogue` (of `locale`) against English: a key English has and it lacks, a
 * key English does not have, a text that lacks or adds a `{placeholder}` English's has, an empty
 * text; for a plural, a CLDR form its language uses and it lacks, or one its language does not use
 * (a form other than `other` may leave out `{count}`: "one ticket", Arabic's dual). Empty: all good.
 */
export function catalogueProblems(locale: Locale, catalogue: Catalogue, english: Catalogue): string[] {
  const problems: string[] = [];
  const bases = (c: Catalogue) => new Map(Object.keys(c).map((key) => [split(key)[0], split(key)[1] !== undefined]));
  const ours = bases(catalogue);
  const theirs = bases(english);
  for (const [base, isPlural] of theirs) {
    if (!ours.has(base)) problems.push(`${locale}: lacks the key ${base}`);
    else if (ours.get(base) !== isPlural) problems.push(`${locale}: ${base} is ${isPlural ? '' : 'not '}a plural in English`);
  }
  for (const base of ours.keys()) if (!theirs.has(base)) problems.push(`${locale}: has the key ${base}, which English has not`);
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories as string[];
  // The placeholders of each base in English (a plural's: all its forms').
  const expected = new Map<string, string[]>();
  for (const [key, text] of Object.entries(english)) {
    const [base] = split(key);
    expected.set(base, [...new Set([...(expected.get(base) ?? []), ...placeholders(text)])].sort());
  }
  for (const [key, text] of Object.entries(catalogue)) {
    const [base, form] = split(key);
    if (typeof text !== 'string' || text.trim() === '') problems.push(`${locale}: ${key} is empty`);
    if (form !== undefined && !categories.includes(form)) problems.push(`${locale}: ${key} is a plural form ${locale} does not use (${categories.join(', ')})`);
    const want = expected.get(base);
    if (!want || typeof text !== 'string') continue;
    const have = placeholders(text);
    for (const name of want)
      if (!have.includes(name) && !(form !== undefined && form !== 'other' && name === 'count'))
        problems.push(`${locale}: ${key} lacks the placeholder {${name}}`);
    for (const name of have) if (!want.includes(name)) problems.push(`${locale}: ${key} adds the placeholder {${name}}, which English has not`);
  }
  for (const [base, isPlural] of ours)
    if (isPlural)
      for (const form of categories) if (!Object.hasOwn(catalogue, `${base}#${form}`)) problems.push(`${locale}: ${base} lacks its plural form #${form}`);
  return problems;
}

export interface LocaleBuild {
  /** Each file to serve, by its path under the site (`locales/widget.de.<hash>.json`) → its content. */
  files: Record<string, string>;
  /** For each surface: the English keys built in, and each other locale's file (its path, relative to the site's root). */
  widget: { english: Catalogue; files: Partial<Record<Locale, string>>; loading: Record<Locale, string> };
  claim: { english: Catalogue; files: Partial<Record<Locale, string>> };
}

/** `locales/<surface>.<tag>.<first 16 hex of the content's SHA-256>.json`. */
export const localeFileName = (surface: Surface, locale: Locale, content: string): string =>
  `locales/${surface}.${locale}.${createHash('sha256').update(content, 'utf8').digest('hex').slice(0, 16)}.json`;

/**
 * The locale files and what the bundles need to know of them, from the catalogues on disk (read
 * again on each call: a few KB). The widget also carries every locale's loading text, so that it
 * speaks the customer's language while that language's file is on its way.
 */
export function localeBuild(directory = CATALOGUE_DIRECTORY): LocaleBuild {
  const catalogues = Object.fromEntries(LOCALES.map((locale) => [locale, readCatalogue(locale, directory)])) as Record<Locale, Catalogue>;
  const build: LocaleBuild = {
    files: {},
    widget: { english: surfaceOf(catalogues.en, 'widget'), files: {}, loading: {} as Record<Locale, string> },
    claim: { english: surfaceOf(catalogues.en, 'claim'), files: {} },
  };
  for (const locale of LOCALES) {
    build.widget.loading[locale] = catalogues[locale]['widget.loading'] ?? catalogues.en['widget.loading']!;
    if (locale === 'en') continue;
    for (const surface of SURFACES) {
      const content = JSON.stringify(surfaceOf(catalogues[locale], surface));
      const path = localeFileName(surface, locale, content);
      build.files[path] = content;
      build[surface].files[locale] = path;
    }
  }
  return build;
}

/** esbuild's `define`s that carry the build's locale knowledge into the widget and the claim page's script. */
export function localeDefines(build: LocaleBuild = localeBuild()): Record<string, string> {
  return {
    __OP_WIDGET_EN__: JSON.stringify(build.widget.english),
    __OP_WIDGET_FILES__: JSON.stringify(build.widget.files),
    __OP_WIDGET_LOADING__: JSON.stringify(build.widget.loading),
    __OP_CLAIM_EN__: JSON.stringify(build.claim.english),
    __OP_CLAIM_FILES__: JSON.stringify(build.claim.files),
  };
}

/** Served with every locale file: cached for good (a new content is a new name), readable by a merchant's page on another origin. */
export const LOCALE_FILE_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'public, max-age=31536000, immutable',
  'access-control-allow-origin': '*',
  'x-content-type-options': 'nosniff',
} as const;
