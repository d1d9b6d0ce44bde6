/**
 * The merchant's claim link: the customer's claim page for one shop, `<site>/claim?shop=<client_id>`,
 * with `#order=<order number>&email=<e-mail>` when the merchant fills them in (its order
 * confirmation e-mail, say). The order number and e-mail ride in the fragment, which a browser
 * never sends: no server, CDN or access log sees them, and no Referer carries them. The page sends
 * the shop as `client_id` to POST /claims/sessions and shows no key; it reads the order number and
 * e-mail, then drops them from the address bar. Pure: the CLI prints it (`npm run client --
 * claim-link`), the portal shows it.
 */
export const CLAIM_LINK_PATH = '/claim';
export const CLAIM_LINK_PARAMS = { shop: 'shop', order: 'order', email: 'email' } as const;

export function claimLink(siteUrl: string, clientId: string, prefill: { orderNumber?: string | undefined; email?: string | undefined } = {}): string {
  const url = new URL(CLAIM_LINK_PATH, siteUrl);
  url.searchParams.set(CLAIM_LINK_PARAMS.shop, clientId);
  const fragment = new URLSearchParams();
  if (prefill.orderNumber) fragment.set(CLAIM_LINK_PARAMS.order, prefill.orderNumber);
  if (prefill.email) fragment.set(CLAIM_LINK_PARAMS.email, prefill.email);
  url.hash = fragment.toString();
  return url.toString();
}
