// Cursor pagination of the lists (GET /simulations, GET /days, GET /days/{day_id}/revisions): a page
// of `limit` items and, when more follow, `next_page_token`, which the client sends back as
// `page_token` for the next page. A token is opaque to clients (base64url of the last item's sort key),
// so an item added meanwhile neither repeats nor hides one: the next page starts strictly after the
// last item shown, in the list's fixed order.
import { HttpError } from './errors.ts';

/** A sort key: the list's order compares these element by element. */
export type PageKey = readonly (string | number)[];

export function encodePageToken(key: PageKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

function decodePageToken(token: string, arity: number): PageKey {
  try {
    const key: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(key) && key.length === arity && key.every((k) => typeof k === 'string' || typeof k === 'number')) return key;
  } catch {
    // fall through to the 400
  }
  throw new HttpError(400, "Query parameter 'page_token' must be a next_page_token of this list.", {}, { fieldErrors: [{ field: 'page_token', message: 'must be a next_page_token of this list' }] });
}

/** Orders two keys; each position ascending, or descending where `descending[i]`. */
function compareKeys(a: PageKey, b: PageKey, descending: readonly boolean[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    const ascending = x < y ? -1 : 1;
    return descending[i] ? -ascending : ascending;
  }
  return 0;
}

/**
 * One page of `items`: sorted by `keyOf` (each key position descending where `descending[i]`), those
 * strictly after `pageToken`, at most `limit`, with the token of the next page when more follow.
 */
export function paginate<T>(items: readonly T[], options: {
  keyOf: (item: T) => PageKey; descending: readonly boolean[]; limit: number; pageToken: string | undefined;
}): { page: T[]; nextPageToken: string | null } {
  const { keyOf, descending, limit, pageToken } = options;
  const sorted = [...items].sort((a, b) => compareKeys(keyOf(a), keyOf(b), descending));
  const after = pageToken === undefined ? null : decodePageToken(pageToken, descending.length);
  const rest = after === null ? sorted : sorted.filter((item) => compareKeys(keyOf(item), after, descending) > 0);
  const page = rest.slice(0, limit);
  return { page, nextPageToken: rest.length > limit ? encodePageToken(keyOf(page[page.length - 1]!)) : null };
}
