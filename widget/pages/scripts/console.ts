import { $, el, signedInPagesKit } from './kit.js';
import { accounts } from './console-accounts.js';
import { auditLog } from './console-audit.js';
import { bordereaux } from './console-bordereaux.js';
import { claimQueue } from './console-claims.js';
import { merchants } from './console-merchants.js';
import { staff } from './console-staff.js';
import { loadPagesConfig, SignInError, startSignIn, type Session } from './sign-in.js';

/**
 * The operator console at /admin/ (console-page.ts; served at /assets/console.js): the person signs
 * in (scripts/sign-in.ts: the token stays in this page's memory), then one page with a section per
 * duty, moved between by the address's hash (#claims, #bordereaux, #accounts, #merchants, #audit, #staff) so the token survives:
 * the navigation lists the sections the person's groups allow; a section reached by its address
 * without the role is shown, and the API's refusal (403 forbidden_role) with it, in the API's
 * words. A person with no staff group (a merchant user) is told the console is not theirs.
 */
const STAFF_GROUPS: readonly string[] = ['claims', 'finance', 'admin'];
/** The sections, in the navigation's order, with the groups that may use each (the API's route roles). */
const SECTIONS: readonly { id: SectionId; title: string; roles: readonly string[] }[] = [
  { id: 'claims', title: 'Claim queue', roles: ['claims'] },
  { id: 'bordereaux', title: 'Bordereaux', roles: ['finance'] },
  { id: 'accounts', title: 'Accounts', roles: ['finance'] },
  { id: 'audit', title: 'Audit log', roles: ['admin'] },
  { id: 'staff', title: 'Staff', roles: ['admin'] },
  { id: 'merchants', title: 'Merchants', roles: STAFF_GROUPS },
];
type SectionId = 'claims' | 'bordereaux' | 'accounts' | 'merchants' | 'audit' | 'staff';
const ROLE_NAMES: Record<string, string> = { claims: 'Claims', finance: 'Finance', admin: 'Admin', merchant: 'Merchant' };

function showOnly(id: string): void {
  for (const node of Array.from(document.querySelectorAll<HTMLElement>('main > section'))) node.hidden = node.id !== id;
}

function shell(session: Session): void {
  const { user } = session;
  $('who-email').textContent = user.email || user.sub;
  $('who-roles').textContent = user.groups.map((group) => ROLE_NAMES[group] ?? group).join(', ') || 'No group';
  $('account').hidden = false;
  $('sign-out').addEventListener('click', () => session.signOut());
}

function noAccess(session: Session): void {
  $('no-access-email').textContent = session.user.email || session.user.sub;
  showOnly('no-access');
  document.title = 'No access · Console · Order Protection';
  $('no-access-title').focus();
}

function console_(session: Session): void {
  // A 401: the token has expired (an hour); "Sign in again" is a redirect through the issuer, which still knows the person.
  const kit = signedInPagesKit(session, { unauthorized: () => ($('renew').hidden = false) });
  $('renew-button').addEventListener('click', () => void session.renew());
  const allowed = SECTIONS.filter((section) => section.roles.some((role) => session.user.groups.includes(role)));
  const nav = $('sections');
  nav.replaceChildren(
    ...allowed.map((section) => {
      const item = el('li');
      const link = el('a', section.title);
      link.href = '#' + section.id;
      link.dataset.section = section.id;
      item.append(link);
      return item;
    }),
  );
  nav.hidden = false;
  const sections: Record<SectionId, { load(): Promise<void> }> = {
    claims: claimQueue(kit),
    bordereaux: bordereaux(kit),
    accounts: accounts(kit),
    merchants: merchants(kit),
    audit: auditLog(kit),
    staff: staff(kit),
  };
  const opened = new Set<SectionId>();
  function route(focus: boolean): void {
    const wanted = location.hash.slice(1);
    const section = SECTIONS.find((candidate) => candidate.id === wanted) ?? allowed[0]!;
    for (const link of Array.from(nav.querySelectorAll('a'))) {
      if (link.dataset.section === section.id) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    kit.clearError();
    kit.announce('');
    showOnly(section.id);
    // Reached by its address without the role: said here, and the API's own refusal follows when the section asks it.
    const note = $(section.id + '-role-note');
    note.hidden = allowed.includes(section);
    // Its forms are not offered to a person the API would refuse (the page's CSS hides them).
    $(section.id).toggleAttribute('data-refused', !allowed.includes(section));
    document.title = section.title + ' · Console · Order Protection';
    if (focus) $(section.id + '-title').focus();
    if (!opened.has(section.id)) {
      opened.add(section.id);
      // After the read that may still run (the section opened first): run() drops an action while one runs.
      const id = section.id;
      void kit.whenIdle().then(() => sections[id].load());
    }
  }
  window.addEventListener('hashchange', () => route(true));
  route(false);
}

async function start(): Promise<void> {
  let session: Session;
  try {
    session = await startSignIn(await loadPagesConfig(), 'console');
  } catch (err) {
    $('signing-in-text').textContent = err instanceof SignInError ? err.message : 'The sign-in could not be completed. Reload the page to try again.';
    $('signing-in').setAttribute('role', 'alert');
    return;
  }
  shell(session);
  if (!session.user.groups.some((group) => STAFF_GROUPS.includes(group))) noAccess(session);
  else console_(session);
}
void start();
