// Scenario: the day lists are paged like the job list: GET /days newest first and
// GET /days/{day_id}/revisions oldest first, `limit` items a page, `next_page_token` to the next page
// until it is null, every item once; a token of another list or a made-up one is 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DayStoreHandle } from '../../src/store/day-store-handle.ts';
import { freshPgliteDayStore } from '../support/databases.ts';
import { STAGING_KEY, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let days: DayStoreHandle;
let removeDir: () => void;
beforeAll(async () => {
  ({ days, remove: removeDir } = await freshPgliteDayStore());
  server = await startTestServer({ days, env: { RATE_LIMIT_PER_MINUTE: '0' } });
}, 120_000);
afterAll(async () => {
  await server.close();
  await days.close();
  removeDir();
});

const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method, headers: { 'X-API-Key': STAGING_KEY, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() as any };
};

/** Every item of a paged list, following next_page_token; the page sizes seen. */
async function walk(path: string, field: string, limit: number): Promise<{ items: any[]; sizes: number[] }> {
  const items: any[] = [];
  const sizes: number[] = [];
  let token: string | null = null;
  do {
    const page = await send('GET', `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${token ? `&page_token=${token}` : ''}`);
    expect(page.status).toBe(200);
    items.push(...page.body[field]);
    sizes.push(page.body[field].length);
    token = page.body.next_page_token;
  } while (token !== null);
  return { items, sizes };
}

describe('paged day lists', () => {
  it('scenario: five days in pages of two, newest first; three revisions in pages of two, oldest first', async () => {
    const opened: string[] = [];
    for (let i = 0; i < 5; i++) opened.push((await send('POST', '/days', { schedule_file: 'small' })).body.id);
    const listed = await walk('/days', 'days', 2);
    expect(listed.sizes).toEqual([2, 2, 1]);
    expect(listed.items.map((d) => d.id).sort()).toEqual([...opened].sort());
    const created = listed.items.map((d) => d.created_at as string);
    expect([...created].sort().reverse()).toEqual(created);

    const day = opened[0]!;
    expect((await send('POST', `/days/${day}/revert`, { revision: 1 }, { 'If-Match': '"1"' })).status).toBe(201);
    expect((await send('POST', `/days/${day}/revert`, { revision: 1 }, { 'If-Match': '"2"' })).status).toBe(201);
    const revisions = await walk(`/days/${day}/revisions`, 'revisions', 2);
    expect(revisions.sizes).toEqual([2, 1]);
    expect(revisions.items.map((r) => r.number)).toEqual([1, 2, 3]);
    // Without a limit, every revision in one page.
    const all = await send('GET', `/days/${day}/revisions`);
    expect(all.body.revisions.map((r: { number: number }) => r.number)).toEqual([1, 2, 3]);
    expect(all.body.next_page_token).toBeNull();
  });

  it('unit: a made-up token, a token of the other list, a limit out of range: 400 with a sentence', async () => {
    const days = await send('GET', '/days?limit=1');
    const dayToken = days.body.next_page_token as string;
    expect((await send('GET', `/days/${days.body.days[0].id}/revisions?page_token=${dayToken}`)).body).toEqual({ detail: "Query parameter 'page_token' must be a next_page_token of this list." });
    expect((await send('GET', '/days?page_token=abc')).status).toBe(400);
    expect((await send('GET', '/days?limit=101')).body.detail).toMatch(/^Query parameter 'limit' /);
  });
});
