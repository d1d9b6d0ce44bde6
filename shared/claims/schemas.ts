import * as v from 'valibot';
import { NotFoundError } from '../platform/errors.js';
import { prefixedIdPattern } from '../platform/ids.js';
import { AmountText, line, listPage, maxCharacters, noHiddenInProse, Text } from '../platform/http/schemas.js';
import { CLAIM_REASONS, CLAIM_STATUSES, MAX_CLAIM_POLICIES, MAX_CLAIM_TEXT } from './claim.js';

/** The claims' request schemas and path ids. */
/** Free text of a claim: 1 to MAX_CLAIM_TEXT characters, trimmed, lines and tabs but nothing hidden. */
const ClaimText = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), maxCharacters(MAX_CLAIM_TEXT), noHiddenInProse);
const POLICY_NUMBER = /^OP-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/;

/**
 * POST /claims/sessions: the customer proves the order is theirs. The shop is named by exactly one
 * of `client_id` (the merchant's claim link, `/claim?shop=<client_id>`) and `public_key` (the
 * widget's key, as before): neither or both is 422 naming `client_id`.
 */
export const ClaimSessionRequest = v.pipe(
  v.strictObject({
    order_number: Text,
    email: Text,
    client_id: v.optional(Text),
    public_key: v.optional(Text),
  }),
  v.forward(
    v.check((input) => input.client_id !== undefined || input.public_key !== undefined, 'must name the shop (or public_key must)'),
    ['client_id'],
  ),
  v.forward(
    v.check((input) => input.client_id === undefined || input.public_key === undefined, 'must not be sent with public_key: name the shop by one of them'),
    ['client_id'],
  ),
);

/** POST /claims: the policies claimed (of the session's order), why, and what happened. */
export const FileClaimRequest = v.strictObject({
  policy_numbers: v.pipe(
    v.array(v.pipe(v.string(), v.regex(POLICY_NUMBER, 'must be a policy number such as OP-7K3M-9Q2D-X4TB'))),
    v.minLength(1, 'must name at least one policy'),
    v.maxLength(MAX_CLAIM_POLICIES, `must name at most ${MAX_CLAIM_POLICIES} policies`),
  ),
  reason: v.picklist(CLAIM_REASONS, `must be one of ${CLAIM_REASONS.join(', ')}`),
  description: ClaimText,
});

/** POST /claims/{id}/respond: the customer's answer to a request for documents. */
export const ClaimMessageRequest = v.strictObject({ message: ClaimText });

/** POST /admin/claims/{id}/decision. */
export const ClaimDecisionRequest = v.strictObject({
  decision: v.picklist(['approve', 'deny', 'request_documents'], 'must be approve, deny or request_documents'),
  /** Read in the claim's currency by the decision: at most its digits, at most the claimed coverage. */
  amount: v.optional(AmountText),
  note: v.optional(ClaimText),
});

/** POST /admin/claims/{id}/paid: the payout's reference in the operator's payment system. */
export const ClaimPaidRequest = v.strictObject({
  payout_reference: line(100),
});

/**
 * GET /admin/claims?status&limit&cursor (the queue), or GET /admin/claims?client_id&order_number (a
 * search: an order number is only unique within its merchant, and is stored as a keyed hash per
 * client, so the two come together). A search answers every claim of the order, whatever its
 * status, on one page (at most MAX_ORDER_CLAIMS): `status` and `cursor` do not go with it, and
 * either half alone is refused naming the missing one.
 */
export const ClaimQueueQuery = v.pipe(
  v.strictObject({
    status: v.optional(v.picklist(CLAIM_STATUSES, `must be one of ${CLAIM_STATUSES.join(', ')}`)),
    limit: listPage.limit,
    cursor: listPage.cursor,
    // A client's id and nothing else (repeated in the query, API Gateway joins the values with a comma).
    client_id: v.optional(v.pipe(v.string(), v.regex(prefixedIdPattern('cl'), 'must be a client id (cl_ and 24 letters or digits)'))),
    order_number: v.optional(Text),
  }),
  v.forward(
    v.check(
      (query) => query.order_number === undefined || query.client_id !== undefined,
      'must be sent with order_number: an order number is unique only within its merchant',
    ),
    ['client_id'],
  ),
  v.forward(
    v.check((query) => query.client_id === undefined || query.order_number !== undefined, 'must be sent with client_id (the search is by order number)'),
    ['order_number'],
  ),
  v.forward(
    v.check(
      (query) => query.order_number === undefined || query.status === undefined,
      "must not be sent with order_number: a search answers the order's claims in every status",
    ),
    ['status'],
  ),
  v.forward(
    v.check((query) => query.order_number === undefined || query.cursor === undefined, 'must not be sent with order_number: a search answers on one page'),
    ['cursor'],
  ),
);

const CLAIM_ID = /^clm_[0-9A-Za-z]{24}$/;
/** A claim's id from a path: anything else names no claim (404 before any read). */
export function claimIdOf(pathParameters: Record<string, string | undefined> | undefined): string {
  const id = pathParameters?.id;
  if (id === undefined || !CLAIM_ID.test(id)) throw new NotFoundError('claim_not_found', 'No claim with this id.', 'claim_id');
  return id;
}

/** GET /claims/eligibility?policy_numbers=OP-…,OP-…: one to MAX_CLAIM_POLICIES policy numbers, comma-separated. */
export const EligibilityQuery = v.strictObject({
  policy_numbers: v.pipe(
    v.string('must list policy numbers, comma-separated'),
    v.transform((text) => text.split(',').map((number) => number.trim())),
    v.array(v.pipe(v.string(), v.regex(POLICY_NUMBER, 'must be policy numbers such as OP-7K3M-9Q2D-X4TB, comma-separated'))),
    v.minLength(1, 'must name at least one policy'),
    v.maxLength(MAX_CLAIM_POLICIES, `must name at most ${MAX_CLAIM_POLICIES} policies`),
  ),
});
