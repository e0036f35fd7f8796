// Paging on every paged v2 route (those whose query declares page_no; the world has one organization
// for the partner's list): the envelope's
// `paging {total_count, start_offset, end_offset}` is 1-based and inclusive, an empty page is
// 0/0 (an emulator decision, docs/limits-and-decisions.md), per_page is 1..100 (default 25), page_no ≥ 1.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { makeTestApp } from '../../helpers/test-app.js';
import { V2_ROUTES, buildWorld, credentialsFor, routeName, urlOf } from '../../helpers/v2-routes.js';

const pagedRoutes = V2_ROUTES.filter((r) => r.method === 'get' && r.query instanceof z.ZodObject && 'page_no' in r.query.shape);

describe('paged routes', () => {
  it('are the six list routes', () => {
    expect(pagedRoutes.map(routeName).sort()).toEqual(
      [
        'get /v2/livestreams',
        'get /v2/meetings',
        'get /v2/meetings/{meeting_id}/livestream',
        'get /v2/meetings/{meeting_id}/participants',
        'get /v2/recordings',
        'get /v2/orgs',
      ].sort(),
    );
  });

  const names = pagedRoutes.map(routeName);

  it.each(names)('%s: one item on page 1 is offsets 1..1', async (name) => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    const r = pagedRoutes.find((x) => routeName(x) === name)!;
    const res = await t.api.get(urlOf(r, w)).set('Authorization', credentialsFor(r)).expect(200);
    expect(res.body).toEqual({ success: true, data: [expect.any(Object)], paging: { total_count: 1, start_offset: 1, end_offset: 1 } });
  });

  it.each(names)('%s: a page past the end is empty with offsets 0/0 and the total kept', async (name) => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    const r = pagedRoutes.find((x) => routeName(x) === name)!;
    const res = await t.api
      .get(`${urlOf(r, w)}?page_no=2&per_page=1`)
      .set('Authorization', credentialsFor(r))
      .expect(200);
    expect(res.body).toEqual({ success: true, data: [], paging: { total_count: 1, start_offset: 0, end_offset: 0 } });
  });

  it.each(names)('%s: per_page=100 is allowed', async (name) => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    const r = pagedRoutes.find((x) => routeName(x) === name)!;
    const res = await t.api
      .get(`${urlOf(r, w)}?per_page=100&page_no=1`)
      .set('Authorization', credentialsFor(r))
      .expect(200);
    expect(res.body).toEqual({ success: true, data: [expect.any(Object)], paging: { total_count: 1, start_offset: 1, end_offset: 1 } });
  });

  it.each(
    names.flatMap((name) =>
      [
        ['per_page=101', '"per_page" must be less than or equal to 100'],
        ['per_page=0', '"per_page" must be greater than or equal to 1'],
        ['page_no=0', '"page_no" must be greater than or equal to 1'],
        ['page_no=-1', '"page_no" must be greater than or equal to 1'],
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
