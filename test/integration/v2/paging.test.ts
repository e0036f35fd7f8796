// Paging on every paged v2 route (those whose query declares page_no; the world has one organization
// for the partner's list): the envelope's
// `paging {total_count, start_offset, end_offset}` is 1-based and inclusive, an empty page is
// 0/0 (an emulator decision, docs/limits-and-decisions.md), per_page is 0..100 (default 25), page_no ≥ 0,
// where 0 or an empty value means "not given" (production documents both from 0, empty allowed).
// The world holds one item of each list, and the six presets of the default fixtures.
// Where production's reference keeps `paging` inside `data` (the livestream routes), the page's
// items are the list `data` holds next to it.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { schemaOf } from '../../../src/http/route.js';
import { makeTestApp } from '../../helpers/test-app.js';
import { V2_ROUTES, buildWorld, credentialsFor, routeName, urlOf } from '../../helpers/v2-routes.js';

const pagedRoutes = V2_ROUTES.filter((r) => {
  const query = r.query && schemaOf(r.query);
  return r.method === 'get' && query instanceof z.ZodObject && 'page_no' in query.shape;
});
/** How many items each list holds in the world. */
const inWorld = (name: string) => (name === 'get /v2/presets' ? 6 : 1);

/**
 * A page as the route answers it: `data` the items and `paging` beside it, or, where production
 * nests them, `data: {<items>: [...], paging}` (livestream lists also hold their newest `session`).
 */
function pageOf(body: { success: boolean; data: unknown; paging?: unknown }): { success: boolean; items: unknown; paging: unknown } {
  if (body.paging !== undefined || Array.isArray(body.data)) return { success: body.success, items: body.data, paging: body.paging };
  const { paging, ...rest } = body.data as Record<string, unknown>;
  return { success: body.success, items: Object.values(rest).find(Array.isArray), paging };
}

describe('paged routes', () => {
  it('are the list routes', () => {
    expect(pagedRoutes.map(routeName).sort()).toEqual(
      [
        'get /v2/presets',
        'get /v2/sessions',
        'get /v2/sessions/{session_id}/participants',
        'get /v2/livestreams',
        'get /v2/livestreams/{livestream_id}',
        'get /v2/sessions/{session_id}/livestream-sessions',
        'get /v2/meetings',
        'get /v2/meetings/{meeting_id}/livestream',
        'get /v2/meetings/{meeting_id}/participants',
        'get /v2/recordings',
        'get /v2/orgs',
      ].sort(),
    );
  });

  const names = pagedRoutes.map(routeName);

  it.each(names)('%s: the items on page 1 are offsets 1..n', async (name) => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    const r = pagedRoutes.find((x) => routeName(x) === name)!;
    const n = inWorld(name);
    const res = await t.api.get(urlOf(r, w)).set('Authorization', credentialsFor(r)).expect(200);
    expect(pageOf(res.body)).toEqual({ success: true, items: Array(n).fill(expect.any(Object)), paging: { total_count: n, start_offset: 1, end_offset: n } });
  });

  it.each(names)('%s: a page past the end is empty with offsets 0/0 and the total kept', async (name) => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    const r = pagedRoutes.find((x) => routeName(x) === name)!;
    const n = inWorld(name);
    const res = await t.api
      .get(`${urlOf(r, w)}?page_no=${n + 1}&per_page=1`)
      .set('Authorization', credentialsFor(r))
      .expect(200);
    expect(pageOf(res.body)).toEqual({ success: true, items: [], paging: { total_count: n, start_offset: 0, end_offset: 0 } });
  });

  it.each(names)('%s: per_page=100 is allowed', async (name) => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    const r = pagedRoutes.find((x) => routeName(x) === name)!;
    const n = inWorld(name);
    const res = await t.api
      .get(`${urlOf(r, w)}?per_page=100&page_no=1`)
      .set('Authorization', credentialsFor(r))
      .expect(200);
    expect(pageOf(res.body)).toEqual({ success: true, items: Array(n).fill(expect.any(Object)), paging: { total_count: n, start_offset: 1, end_offset: n } });
  });

  it.each(names.flatMap((name) => ['page_no=0&per_page=0', 'page_no=&per_page='].map((query) => [name, query] as const)))(
    '%s?%s is the first page at the default size, as production takes them',
    async (name, query) => {
      const t = makeTestApp();
      const w = await buildWorld(t);
      const r = pagedRoutes.find((x) => routeName(x) === name)!;
      const res = await t.api
        .get(`${urlOf(r, w)}?${query}`)
        .set('Authorization', credentialsFor(r))
        .expect(200);
      const n = inWorld(name);
      expect(pageOf(res.body)).toEqual({ success: true, items: Array(n).fill(expect.any(Object)), paging: { total_count: n, start_offset: 1, end_offset: n } });
    },
  );

  it.each(
    names.flatMap((name) =>
      [
        ['per_page=101', '"per_page" must be less than or equal to 100'],
        ['per_page=-1', '"per_page" must be greater than or equal to 0'],
        ['page_no=-1', '"page_no" must be greater than or equal to 0'],
        ['page_no=1.5', '"page_no" must be an integer'],
        ['per_page=ten', '"per_page" must be a number'],
      ].map(([query, message]) => [name, query, message] as const),
    ),
  )('%s?%s answers 400', async (name, query, message) => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    const r = pagedRoutes.find((x) => routeName(x) === name)!;
    const res = await t.api
      .get(`${urlOf(r, w)}?${query}`)
      .set('Authorization', credentialsFor(r))
      .expect(400);
    expect(res.body).toEqual({ success: false, error: { code: 400, message: `BAD_REQUEST: ${message}` } });
  });
});
