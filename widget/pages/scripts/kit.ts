import type { components, operations } from '../../../clients/typescript/src/schema.generated.js';

/**
 * What the pages' scripts share, in the browser (each page's module under widget/pages/scripts/ is
 * bundled with what it uses of this one by widget/build.ts and served at /assets/<page>.js):
 * - the API's shapes, from the client's types generated from openapi.yaml (types only: nothing of
 *   the client is bundled), so a page reads an answer as the contract says it is;
 * - `pageData()`: what the server put in the page's `<script type="application/json" id="page-data">`
 *   (data, never code: the pages' CSP runs no inline script);
 * - `$`, `el`, the labels of reasons and statuses, money and date formatting;
 * - `claimPagesKit(options)`: what the claim pages (/claim, the console's claim queue and bordereaux) do
 *   alike: `announce`, `clearError` / `showError` (the API's message in the alert, focus on the field
 *   it names if it is shown), `request` (fetch with the API's error envelope, plus the HTTP status,
 *   turned into a PageError) and `run` (one action at a time, its error shown). The options are what
 *   the pages say differently (their words for a failed request, an error code that names a field);
 * - `signedInPagesKit(session)`: claimPagesKit with the signed-in pages' words (the console, the
 *   portal) and `api`, which sends the person's access token (held in memory by scripts/sign-in.ts).
 * API strings reach the DOM only as text: `el(tag, text)` and every helper here set `textContent`.
 */
export type Schemas = components['schemas'];
/** The JSON body of an operation's 200 answer. */
export type Ok<Op extends keyof operations> = operations[Op]['responses'] extends { 200: { content: { 'application/json': infer T } } } ? T : never;

/** The page's element with this id (every id a script names is in its page's HTML). */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`#${id} is not on this page`);
  return node as T;
}

/** A new element, with its text (as text, never HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** What the server injected into the page, as JSON in `<script type="application/json" id="page-data">`. */
export function pageData<T>(): T {
  return JSON.parse($('page-data').textContent ?? '') as T;
}

export const REASONS: Record<Schemas['ClaimReason'], string> = {
  illness: 'Illness',
  injury: 'Injury',
  travel_disruption: 'Travel disruption',
  bereavement: 'Bereavement',
  severe_weather: 'Severe weather',
  other: 'Other',
};
export const STATUSES: Record<Schemas['ClaimStatus'], string> = {
  Submitted: 'Submitted',
  DocumentsRequested: 'Documents requested',
  Approved: 'Approved',
  Denied: 'Denied',
  Withdrawn: 'Withdrawn',
  Paid: 'Paid',
};
/** A value's label, or the value itself when the map has none (a status newer than this page). */
export const label = <K extends string>(map: Record<K, string>, value: K): string => map[value] || value;

/** The API's decimal string, formatted exactly (never a float) with the digits it has: its currency's ISO 4217 minor unit; in `locale` (the claim page's customer's), else en-US. */
export function money(amount: string, currency: string, locale = 'en-US'): string {
  try {
    const digits = amount.includes('.') ? amount.length - amount.indexOf('.') - 1 : 0;
    // Intl formats the decimal string itself, exactly (a string the API sends as money is a numeric literal).
    return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
      amount as `${number}`,
    );
  } catch {
    return currency + ' ' + amount;
  }
}
/** A table cell holding `text` (never markup), with an optional class. */
export const cell = (text: string, className?: string): HTMLTableCellElement => {
  const td = el('td', text);
  if (className) td.className = className;
  return td;
};
/** A short status label (`.badge`), neutral, good (`ok`) or bad. */
export const badge = (text: string, tone?: 'ok' | 'bad'): HTMLSpanElement => {
  const span = el('span', text);
  span.className = 'badge' + (tone ? ' ' + tone : '');
  return span;
};
/** A timestamp to the minute, in UTC. */
export const when = (at: string): string => at.slice(0, 16).replace('T', ' ') + ' UTC';
export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What a page shows in its alert: the API's error (its message, code and param, the HTTP status) or a page's own. */
export class PageError extends Error {
  readonly code: string | undefined;
  readonly param: string | undefined;
  readonly status: number | undefined;
  constructor(message: string, details: { code?: string | undefined; param?: string | undefined; status?: number | undefined } = {}) {
    super(message);
    this.code = details.code;
    this.param = details.param;
    this.status = details.status;
  }
}

export interface ClaimPagesKitOptions {
  /** The alert's text when fetch itself fails (no answer at all). */
  unreachable: string;
  /** The alert's text for a failed answer without the API's error envelope; `{status}` becomes the HTTP status. */
  failed: string;
  /** Whether such an answer's own top-level `message` (API Gateway's, e.g. "Forbidden") comes before `failed`. */
  answerMessage: boolean;
  /** Error codes that name a field whatever their `param`: code → the field's element id. */
  fieldByCode?: Record<string, string>;
}
/** The fields an action's error may name: param (or its start, as policy_numbers is of policy_numbers[0]) → the field. */
export type Fields = Record<string, () => HTMLElement | undefined>;
export type Method = 'GET' | 'POST' | 'DELETE';

/** What an API message says after the field key it starts with ("email: must be …" → "must be …"); undefined when it starts with none. */
const afterKey = (message: string, param: string): string | undefined =>
  param && message.startsWith(param + ': ') ? message.slice(param.length + 2) : undefined;

/** An API message without the field key it starts with ("email: must be …" → "Must be …"), for a line beside that field. */
export function besideField(message: string, param: string): string {
  const rest = afterKey(message, param);
  return rest === undefined ? message : rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** What a person reads as a field's name: its label, or its group's legend (a checkbox's or radio's own label names one choice, not the field). */
function fieldLabel(field: HTMLElement): string | undefined {
  const legend = field.closest('fieldset')?.querySelector('legend');
  const choice = field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');
  const label = choice && legend ? legend : ((field as HTMLInputElement).labels?.[0] ?? legend);
  if (!label) return undefined;
  // A label's "(optional)" (`.optional`) is for the form, not for a sentence about the field.
  const words = label.cloneNode(true) as HTMLElement;
  for (const aside of Array.from(words.querySelectorAll('.optional'))) aside.remove();
  return words.textContent?.trim() || undefined;
}

/** Copies a read-only field's text; false where the clipboard is refused, the text then left selected for the person to copy. */
export async function copyField(field: HTMLInputElement): Promise<boolean> {
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    return true;
  } catch {
    return false;
  }
}

/**
 * A form's error lines: each field an API error may name (its `param`) → its element id, whose line
 * is `<id>-error` (the field's description); with `formLine`, an error that names no such field is
 * written at the form's foot (`<formLine>-error`). The page's alert says it too (showError).
 */
export function fieldErrorLines(fields: Record<string, string>, formLine?: string) {
  const lines = () => [...Object.values(fields), ...(formLine ? [formLine] : [])].map((id) => $(id + '-error'));
  return {
    clear(): void {
      for (const line of lines()) {
        line.textContent = '';
        line.hidden = true;
      }
    },
    /** Writes the error beside its field (without the field's key), or at the form's foot; answers the line written, if any. */
    show(err: unknown): HTMLElement | undefined {
      const param = err instanceof PageError ? (err.param ?? '') : '';
      const id = Object.hasOwn(fields, param) ? fields[param] : formLine;
      if (!id) return undefined;
      const message = err instanceof Error ? err.message : '';
      const line = $(id + '-error');
      line.textContent = id === formLine ? message : besideField(message, param);
      line.hidden = false;
      return line;
    },
  };
}

/** The claim pages' helpers; the page needs its `#error` (role=alert) and `#announce` (role=status). */
export function claimPagesKit(options: ClaimPagesKitOptions) {
  const fieldByCode = options.fieldByCode ?? {};
  const errorBox = $('error');
  let invalid: HTMLElement[] = [];
  // The browser's own check stops a form (a required field left empty): its prompt is what is wrong
  // now, and an error of another form's still in the alert would only mislead.
  document.addEventListener('invalid', () => clearError(), true);
  /** Counts the errors shown: a listener for an earlier one leaves a later one alone. */
  let errorsShown = 0;
  const announce = (text: string): void => {
    $('announce').textContent = text;
  };
  function clearError(): void {
    errorBox.textContent = '';
    for (const field of invalid) field.removeAttribute('aria-invalid');
    invalid = [];
  }
  // The API's own message, in the alert; focus goes to the field it names, else to the alert.
  function showError(err: unknown, fields: Fields = {}): void {
    announce('');
    errorsShown++;
    const message = (err instanceof Error && err.message) || 'Something went wrong. Please try again.';
    errorBox.textContent = message;
    const param = (err instanceof PageError && err.param) || '';
    const code = (err instanceof PageError && err.code) || '';
    const byCode = Object.hasOwn(fieldByCode, code) ? fieldByCode[code] : undefined;
    const name = Object.keys(fields).find((prefix) => param === prefix || param.startsWith(prefix + '[') || param.startsWith(prefix + '.'));
    const named = byCode ? document.getElementById(byCode) : name ? fields[name]?.() : undefined;
    // A field the page no longer shows (its form went away with the claim's new state) cannot take the focus.
    const field = named && named.getClientRects().length > 0 ? named : undefined;
    if (field) {
      // The API names the field by its key ("email: must be …"); the page says it by its label.
      const label = fieldLabel(field);
      const rest = afterKey(message, param);
      // A list written one element a line (a textarea: the terms' rate bands) says which line.
      const index = field instanceof HTMLTextAreaElement ? /^[\w.]+\[(\d+)\]/.exec(param)?.[1] : undefined;
      const line = index === undefined ? '' : ', line ' + (Number(index) + 1);
      if (label && rest !== undefined) errorBox.textContent = label + line + ': ' + rest;
      field.setAttribute('aria-invalid', 'true');
      invalid.push(field);
      field.focus();
    } else {
      errorBox.focus();
    }
    clearWhenPutRight(field);
  }
  /**
   * The error goes once the person changes what it named: its field (a box of its group ticked, its
   * text typed), or, for an error of no one field (no order matches what was typed), any form's
   * field; a page's language switch, in no form, says it again instead. A later error keeps its own.
   */
  function clearWhenPutRight(field: HTMLElement | undefined): void {
    const shown = errorsShown;
    const grouped = field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');
    const scope = field && ((grouped && field.closest('fieldset')) || field);
    const changed = (event: Event) => {
      const target = event.target;
      if (!(target instanceof Element) || !(scope ? scope.contains(target) : target.closest('form'))) return;
      document.removeEventListener('input', changed);
      document.removeEventListener('change', changed);
      if (errorsShown === shown && errorBox.textContent) clearError();
    };
    document.addEventListener('input', changed);
    document.addEventListener('change', changed);
  }

  // A failed answer throws a PageError with the API's error envelope ({ message, code, param }) or a
  // message of the page's own, and the answer's HTTP status (none when no answer came at all).
  async function request<T>(method: Method, path: string, body?: unknown, authorization?: string, extra: Record<string, string> = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', ...extra };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (authorization) headers.authorization = authorization;
    let res: Response;
    try {
      res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      throw new PageError(options.unreachable);
    }
    const data = (await res.json().catch(() => null)) as { error?: { message?: string; code?: string; param?: string }; message?: string } | null;
    if (!res.ok) {
      const error = data?.error;
      if (error) throw new PageError(error.message ?? '', { code: error.code, param: error.param, status: res.status });
      throw new PageError((options.answerMessage && data?.message) || options.failed.replace('{status}', String(res.status)), { status: res.status });
    }
    return data as T;
  }
  // One action at a time (a second click while one runs does nothing); what it throws goes to showError.
  let busy = false;
  let running: Promise<void> = Promise.resolve();
  function run(action: () => unknown, fields?: Fields): Promise<void> {
    if (busy) return Promise.resolve();
    busy = true;
    clearError();
    running = (async () => {
      try {
        await action();
      } catch (err) {
        showError(err, fields);
      } finally {
        busy = false;
      }
    })();
    return running;
  }
  /**
   * Resolves once no action runs (waiting for at most a few in a row): what must not be dropped
   * as a second click is, a section's first read when another section's read still runs, waits here.
   */
  async function whenIdle(): Promise<void> {
    for (let waits = 0; busy && waits < 10; waits++) await running;
  }
  return { announce, clearError, showError, request, run, whenIdle };
}

/**
 * The signed-in pages' kit (the console under /admin/, the portal under /portal/): claimPagesKit with
 * their words, and `api`, which sends the person's access token (`Authorization: Bearer`, held in
 * memory by scripts/sign-in.ts) to a path under the API base of /config.json (`/api/v2`); an
 * answer 401 (the token expired: an hour) also calls `options.unauthorized`, where the page offers
 * to sign in again.
 */
export function signedInPagesKit(session: { token(): string; config: { api_base: string } }, options: { unauthorized?: () => void } = {}) {
  const kit = claimPagesKit({ unreachable: 'The API could not be reached.', failed: 'The API answered {status}.', answerMessage: true });
  const base = session.config.api_base.replace(/\/+$/, '');
  /** `path` is the API's own (`/api/v2/admin/claims`); the base of /config.json replaces its `/api/v2`. A 401 (the token expired) calls `options.unauthorized` too. */
  const api = async <T>(method: Method, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> => {
    try {
      return await kit.request<T>(method, base + path.replace(/^\/api\/v2/, ''), body, 'Bearer ' + session.token(), headers);
    } catch (err) {
      if (err instanceof PageError && err.status === 401) options.unauthorized?.();
      throw err;
    }
  };
  return { ...kit, api };
}
