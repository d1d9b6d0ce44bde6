import { $, el, fieldErrorLines, type Ok, type Schemas, type signedInPagesKit } from './kit.js';
import { labelCells } from './console-tables.js';
import { allMerchants, merchantLabel } from './console-merchants.js';

/**
 * The console's Staff section (its markup: console-page.ts, section #staff; role `admin`): the
 * people who may sign in (GET /api/v2/admin/staff, 20 at a time with "Load more") and "Add a
 * person" (POST /api/v2/admin/staff): e-mail, groups, and for a merchant user the merchant, a select
 * filled from GET /api/v2/admin/clients shown only when `merchant` is ticked. An error the API ties
 * to a field is written beside that field (its description) as well as in the page's alert, and the
 * focus goes to the field. After adding, the admin is told how the person gets a first password:
 * Cognito's invitation e-mail, or under npm start the file `.local/staff.json`.
 */
type StaffUser = Schemas['StaffUser'];
type Added = StaffUser & { invitation: 'email' | 'local_file' };

/** People a page of the list shows. */
export const STAFF_PAGE_SIZE = 20;
const GROUP_NAMES: Record<string, string> = { claims: 'Claims', finance: 'Finance', admin: 'Admin', merchant: 'Merchant' };
const STATUS_NAMES: Record<string, string> = { invited: 'Invited (temporary password sent)', active: 'Active', disabled: 'Disabled' };
/** The form's fields an API error may name (its `param`) → the element and its error line. */
const FIELDS: Record<string, string> = { email: 'staff-email', groups: 'staff-group-claims', client_id: 'staff-client' };

/** What the admin is told once a person is added: where their first password is. */
export function addedMessage(added: Added): string {
  const who = added.email + ' may sign in (' + added.groups.map((group) => GROUP_NAMES[group] ?? group).join(', ') + ').';
  return added.invitation === 'email'
    ? who + ' Cognito has e-mailed them an invitation with a temporary password; they set their own, and MFA, at first sign-in.'
    : who + ' npm start wrote their first password to .local/staff.json (it is shown nowhere else).';
}

export function staff({ announce, api, run, showError }: ReturnType<typeof signedInPagesKit>) {
  let cursor: string | null = null;
  let count = 0;
  let clientsLoaded = false;
  /** A merchant user's merchant by name in the list (read with the merchant select's list). */
  const merchantNames = new Map<string, string>();
  const merchantOf = (clientId: string | undefined): string => {
    const name = clientId && merchantNames.get(clientId);
    return name ? merchantLabel(name, clientId) : (clientId ?? '–');
  };
  const form = $<HTMLFormElement>('staff-form');
  const groupBoxes = () => Array.from(form.querySelectorAll<HTMLInputElement>('input[name=group]'));
  const clientField = $<HTMLSelectElement>('staff-client');

  function row(user: StaffUser): HTMLTableRowElement {
    const tr = el('tr');
    tr.append(
      el('td', user.email),
      el('td', user.groups.map((group) => GROUP_NAMES[group] ?? group).join(', ') || '–'),
      el('td', merchantOf(user.client_id)),
      el('td', STATUS_NAMES[user.status] ?? user.status),
    );
    return tr;
  }
  async function read(first: boolean): Promise<void> {
    const query = new URLSearchParams({ limit: String(STAFF_PAGE_SIZE) });
    if (!first && cursor) query.set('cursor', cursor);
    const page = await api<Ok<'listStaff'>>('GET', '/api/v2/admin/staff?' + query.toString());
    if (page.data.some((user) => user.client_id) && !clientsLoaded) await loadClients();
    if (first) {
      $('staff-rows').replaceChildren();
      count = 0;
    }
    $('staff-rows').append(...page.data.map(row));
    labelCells($<HTMLTableElement>('staff-table'));
    count += page.data.length;
    cursor = page.next_cursor;
    $('staff-more').hidden = !page.has_more;
    $('staff-table').hidden = count === 0;
    $('staff-count').textContent = count + (count === 1 ? ' person' : ' people') + (page.has_more ? ' shown; more to load.' : '.');
  }

  /** The merchants a merchant user may be bound to (a disabled one is listed, not choosable). */
  async function loadClients(): Promise<void> {
    if (clientsLoaded) return;
    const options = (await allMerchants(api)).map((client) => {
      merchantNames.set(client.client_id, client.name);
      const option = el('option', merchantLabel(client.name, client.client_id) + (client.disabled ? ' · disabled' : ''));
      option.value = client.client_id;
      option.disabled = client.disabled;
      return option;
    });
    const prompt = el('option', 'Choose a merchant');
    prompt.value = '';
    clientField.replaceChildren(prompt, ...options);
    clientsLoaded = true;
  }

  const errorLines = fieldErrorLines(FIELDS);

  function merchantChosen(): boolean {
    return groupBoxes().some((box) => box.value === 'merchant' && box.checked);
  }
  // The merchant select shows only for a merchant user; it is filled the first time it shows.
  form.addEventListener('change', (event) => {
    if (!(event.target instanceof HTMLInputElement) || event.target.name !== 'group') return;
    const merchant = merchantChosen();
    $('staff-client-field').hidden = !merchant;
    if (merchant) void loadClients().catch((err: unknown) => showError(err));
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run(
      async () => {
        errorLines.clear();
        const groups = groupBoxes()
          .filter((box) => box.checked)
          .map((box) => box.value);
        const body: { email: string; groups: string[]; client_id?: string } = { email: $<HTMLInputElement>('staff-email').value, groups };
        if (merchantChosen() && clientField.value) body.client_id = clientField.value;
        let added: Added;
        try {
          added = await api<Added>('POST', '/api/v2/admin/staff', body);
        } catch (err) {
          errorLines.show(err);
          throw err;
        }
        form.reset();
        $('staff-client-field').hidden = true;
        $('staff-added').textContent = addedMessage(added);
        $('staff-added').hidden = false;
        announce(addedMessage(added));
        await read(true);
        $('staff-email').focus();
      },
      Object.fromEntries(Object.entries(FIELDS).map(([param, id]) => [param, () => $(id)])),
    );
  });
  $('staff-more').addEventListener(
    'click',
    () =>
      void run(async () => {
        await read(false);
        announce('More people loaded.');
      }),
  );
  // The list loads as the section opens, even while the section the console opened on still loads
  // (run() takes one action at a time and would drop this one): its error is shown all the same.
  return { load: () => read(true).catch((err: unknown) => showError(err)) };
}
