import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { API_KEY, BASIC, ORG_ID, basicAuth, makeTestApp } from '../../helpers/test-app.js';
import { BEARER, PREFIXES, SECOND_ORG_ID, SECOND_ORG_KEY, expectedCode, twoOrgFixtures, validProduct } from '../../helpers/v1-helpers.js';

/** [name, Authorization header, message, the credential part that must never be echoed] */
const CASES: Array<[string, string | undefined, string, string | undefined]> = [
  ['no Authorization header', undefined, 'Missing Authorization header', undefined],
  ['Bearer without a key', 'Bearer', 'Expected Authorization: Bearer <API key>', undefined],
  ['Bearer with only spaces', 'Bearer    ', 'Expected Authorization: Bearer <API key>', undefined],
  ['a wrong key', 'Bearer not-the-key', 'Invalid API key', 'not-the-key'],
  ['the key with a suffix', `Bearer ${API_KEY}x`, 'Invalid API key', API_KEY],
  ['the key and more words', `Bearer ${API_KEY} extra`, 'Invalid API key', API_KEY],
  ['the key in another case', `Bearer ${API_KEY.toUpperCase()}`, 'Invalid API key', API_KEY.toUpperCase()],
  ["the v2 Basic credentials (not this API's scheme)", BASIC, 'Expected Authorization: Bearer <API key>', BASIC.slice(6)],
  [
    'Basic with the API key alone',
    `Basic ${Buffer.from(API_KEY).toString('base64')}`,
    'Expected Authorization: Bearer <API key>',
    Buffer.from(API_KEY).toString('base64'),
  ],
  ['another scheme', `Token ${API_KEY}`, 'Expected Authorization: Bearer <API key>', API_KEY],
  ['the key without a scheme', API_KEY, 'Expected Authorization: Bearer <API key>', API_KEY],
];

describe.each(PREFIXES)('v1 authentication under %s', (prefix) => {
  it.each(CASES)('GET answers 401 UNAUTHORIZED with %s', async (_name, header, message, secret) => {
    const { api } = makeTestApp();
    const req = api.get(`${prefix}/products/101-COLDBREW330`);
    if (header !== undefined) req.set('Authorization', header);
    const res = await req.expect(401);
    expect(res.body).toEqual({ error: { code: 'UNAUTHORIZED', message } });
    // Never echoes the credential that was sent.
    if (secret !== undefined) expect(JSON.stringify(res.body)).not.toContain(secret);
  });

  it.each(CASES)('POST answers 401 UNAUTHORIZED with %s and creates nothing', async (_name, header, message) => {
    const { api } = makeTestApp();
    const req = api.post(`${prefix}/products`).send(validProduct());
    if (header !== undefined) req.set('Authorization', header);
    const res = await req.expect(401);
    expect(res.body).toEqual({ error: { code: 'UNAUTHORIZED', message } });
    await api.get(`${prefix}/products/701-NB5`).set('Authorization', BEARER).expect(404);
  });

  it('checks credentials before the body: a bad body with no key is a 401', async () => {
    const { api } = makeTestApp();
    const res = await api.post(`${prefix}/products`).set('Content-Type', 'application/json').send('{oops').expect(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('accepts the scheme name in any case', async () => {
    const { api } = makeTestApp();
    const canonical = await api.get(`${prefix}/products/101-COLDBREW330`).set('Authorization', `Bearer ${API_KEY}`).expect(200);
    expect(canonical.body).toMatchObject({ name: 'Cold Brew Coffee 330 ml', brand: 'Northbean' });
    for (const scheme of ['bearer', 'BEARER']) {
      const res = await api.get(`${prefix}/products/101-COLDBREW330`).set('Authorization', `${scheme} ${API_KEY}`).expect(200);
      expect(res.body).toEqual(canonical.body);
    }
  });

  it('does not accept the v1 key on v2 routes', async () => {
    const { api } = makeTestApp();
    const res = await api.get('/v2/meetings').set('Authorization', BEARER).expect(401);
    expect(res.body.success).toBe(false);
  });
});

describe('isolation between two organizations', () => {
  const SECOND = `Bearer ${SECOND_ORG_KEY}`;

  it.each(PREFIXES)('each key reaches its own products only (%s)', async (prefix) => {
    const { api } = makeTestApp({}, { fixtures: twoOrgFixtures() });
    // The first org's fixture products are not the second's.
    await api.get(`${prefix}/products/101-COLDBREW330`).set('Authorization', SECOND).expect(404);
    // Both have 201-TEE42, each its own.
    const mine = await api.get(`${prefix}/products/201-TEE42`).set('Authorization', BEARER).expect(200);
    const theirs = await api.get(`${prefix}/products/201-TEE42`).set('Authorization', SECOND).expect(200);
    expect(mine.body.name).toBe('Organic Cotton T-Shirt');
    expect(theirs.body.name).toBe('Second Org Tee');
    expect(theirs.body.svc_code).toBe(mine.body.svc_code);
    expect(theirs.body.sustainability).toEqual({ carbon_footprint: '8.5 kgCO2e', certifications: ['OEKO-TEX Standard 100'] });
  });

  it('a product created in one organization is invisible to the other, and the same code is free there', async () => {
    const { api } = makeTestApp({}, { fixtures: twoOrgFixtures() });
    const code = expectedCode('701', 'NB5');
    await api.post('/api/v1/products').set('Authorization', BEARER).send(validProduct()).expect(201);
    await api.get(`/api/v1/products/${code}`).set('Authorization', SECOND).expect(404);
    const second = await api
      .post('/v1/products')
      .set('Authorization', SECOND)
      .send(validProduct({ name: 'Theirs' }))
      .expect(201);
    expect(second.body.svc_code).toBe(code);
    const mine = await api.get(`/v1/products/${code}`).set('Authorization', BEARER).expect(200);
    expect(mine.body.name).toBe('Recycled Notebook A5');
    const theirs = await api.get(`/api/v1/products/${code}`).set('Authorization', SECOND).expect(200);
    expect(theirs.body.name).toBe('Theirs');
  });

  it('a 409 in one organization says nothing about the other', async () => {
    const { api } = makeTestApp({}, { fixtures: twoOrgFixtures() });
    const theirs = await api
      .post('/v1/products')
      .set('Authorization', SECOND)
      .send(validProduct({ category_code: '101', product_id: 'COLDBREW330' }))
      .expect(201);
    // The first organization has it among its fixtures; the second could still create its own.
    const mine = await api
      .post('/v1/products')
      .set('Authorization', BEARER)
      .send(validProduct({ category_code: '101', product_id: 'COLDBREW330' }))
      .expect(409);
    expect(mine.body).toEqual({ error: { code: 'PRODUCT_EXISTS', message: `A product with code ${theirs.body.svc_code} already exists` } });
    expect((await api.get('/v1/products/101-COLDBREW330').set('Authorization', BEARER).expect(200)).body.name).toBe('Cold Brew Coffee 330 ml');
  });

  it('a v2 Basic credential of the second org does not open v1', async () => {
    const { api } = makeTestApp({}, { fixtures: twoOrgFixtures() });
    const v1 = await api.get('/v1/products/201-TEE42').set('Authorization', basicAuth(SECOND_ORG_ID, SECOND_ORG_KEY)).expect(401);
    expect(v1.body).toEqual({ error: { code: 'UNAUTHORIZED', message: 'Expected Authorization: Bearer <API key>' } });
    const v2 = await api.get('/v2/meetings').set('Authorization', basicAuth(SECOND_ORG_ID, SECOND_ORG_KEY)).expect(200);
    expect(v2.body).toMatchObject({ success: true, data: [] });
    const mixed = await api.get('/v2/meetings').set('Authorization', basicAuth(ORG_ID, SECOND_ORG_KEY)).expect(401);
    expect(mixed.body).toEqual({ success: false, error: { code: 401, message: 'Invalid organization id or API key' } });
  });
});

describe('an organization that goes away while its request is in flight', () => {
  it('answers 401 Unknown organization when a reset removes the organization after the credentials were checked', async () => {
    const t = makeTestApp();
    const org = (await t.api.post('/_emulator/orgs').send({ name: 'Short-lived' }).expect(201)).body as { api_key: string };
    const server = createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const body = JSON.stringify(validProduct());
      const res = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest({
          host: '127.0.0.1',
          port: (server.address() as AddressInfo).port,
          method: 'POST',
          path: '/v1/products',
          headers: {
            authorization: `Bearer ${org.api_key}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            expect: '100-continue',
          },
        });
        // Node sends 100 Continue as it hands the request to the emulator, which checks the
        // credentials at once and then waits for the body; the reset comes before the body.
        req.on('continue', () => {
          t.deps.reset();
          req.end(body);
        });
        req.on('response', (r) => {
          let text = '';
          r.setEncoding('utf8');
          r.on('data', (c: string) => (text += c));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, text }));
        });
        req.on('error', reject);
      });
      expect(res.status).toBe(401);
      expect(JSON.parse(res.text)).toEqual({ error: { code: 'UNAUTHORIZED', message: 'Unknown organization' } });
      // The reset left the fixture organization only: the key is unknown from now on.
      const after = await t.api.post('/v1/products').set('Authorization', `Bearer ${org.api_key}`).send(validProduct()).expect(401);
      expect(after.body).toEqual({ error: { code: 'UNAUTHORIZED', message: 'Invalid API key' } });
    } finally {
      server.close();
    }
  });
});
