import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { fixtures, makeTestApp } from '../../helpers/test-app.js';
import { BEARER, PREFIXES, validProduct } from '../../helpers/v1-helpers.js';

describe('GET /_emulator/categories', () => {
  it('lists the fixture categories in fixture order, with their default sustainability data', async () => {
    const { api } = makeTestApp();
    const res = await api.get('/_emulator/categories').expect(200);
    expect(res.body).toEqual(fixtures().categories);
    expect(res.body.length).toBeGreaterThanOrEqual(8);
    for (const c of res.body as Array<Record<string, unknown>>) {
      expect(Object.keys(c).sort()).toEqual(['carbon_footprint', 'certifications', 'code', 'label']);
      expect(c.code).toMatch(/^\d{1,8}$/);
      expect(c.carbon_footprint).toMatch(/^\d+(\.\d+)? \S+$/);
    }
  });

  it('needs no credentials', async () => {
    const { api } = makeTestApp();
    const res = await api.get('/_emulator/categories').expect(200);
    expect(res.body).toEqual(fixtures().categories);
  });

  it('lists the categories of the fixtures it was built with', async () => {
    const f = fixtures();
    f.categories = [
      { code: '9', label: 'Only one', carbon_footprint: '1 kg', certifications: [] },
      { code: '10', label: 'And two', carbon_footprint: '2 kg', certifications: ['X'] },
    ];
    f.organizations[0]!.products = [];
    const { api } = makeTestApp({}, { fixtures: f });
    const res = await api.get('/_emulator/categories').expect(200);
    expect(res.body).toEqual(f.categories);
    // The category list is the one the v1 API accepts.
    await api
      .post('/v1/products')
      .set('Authorization', BEARER)
      .send(validProduct({ category_code: '10' }))
      .expect(201);
    const res2 = await api
      .post('/v1/products')
      .set('Authorization', BEARER)
      .send(validProduct({ category_code: '701' }))
      .expect(400);
    expect(res2.body.error.code).toBe('UNKNOWN_CATEGORY');
  });
});

describe('fixtures with products', () => {
  it('refuses a fixture product whose carbon_footprint attribute does not read "<number> <unit>"', () => {
    const f = fixtures();
    f.organizations[0]!.products.push({
      category_code: '101',
      product_id: 'BAD1',
      name: 'n',
      brand: 'b',
      description: '',
      attributes: { carbon_footprint: 'lots' },
    });
    expect(() => makeTestApp({}, { fixtures: f })).toThrow(/products\[3\]: "attributes.carbon_footprint" must read/);
  });

  it('refuses a fixture product whose product_id is not 1 to 32 letters or digits (fixtures handed to buildDeps as an object)', () => {
    const f = fixtures();
    f.organizations[0]!.products.push({ category_code: '101', product_id: 'COLD-BREW', name: 'n', brand: 'b', description: '', attributes: {} });
    expect(() => makeTestApp({}, { fixtures: f })).toThrow(/products\[3\]: "product_id" must be 1 to 32 letters or digits$/);
  });

  it('refuses two fixture products with the same code (in any letter case)', () => {
    const f = fixtures();
    f.organizations[0]!.products.push({ category_code: '101', product_id: 'coldbrew330', name: 'n', brand: 'b', description: '', attributes: {} });
    expect(() => makeTestApp({}, { fixtures: f })).toThrow(/products\[3\]: duplicate product 101-COLDBREW330-73/);
  });
});

describe('the served OpenAPI document covers v1', () => {
  it.each(PREFIXES)('documents the products routes under %s with their statuses, the v1 error shape and Bearer auth', async (prefix) => {
    const { api } = makeTestApp();
    const doc = (await api.get('/_emulator/openapi.json').expect(200)).body;
    const post = doc.paths[`${prefix}/products`].post;
    const get = doc.paths[`${prefix}/products/{svc_code}`].get;
    // Other statuses (429, default) belong to the rate-limit and fault-injection features.
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '409', '413', '415']));
    expect(Object.keys(post.responses)).not.toContain('404');
    expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    expect(post.responses['201'].content['application/json'].schema.required.sort()).toEqual([
      'brand',
      'category',
      'created_at',
      'description',
      'name',
      'sustainability',
      'svc_code',
      'updated_at',
    ]);
    expect(post.security).toEqual([{ apiKey: [] }]);
    expect(get.security).toEqual([{ apiKey: [] }]);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const errorSchema = get.responses['404'].content['application/json'].schema;
    expect(errorSchema.properties.error.properties.code.type).toBe('string');
    expect(post.requestBody.content['application/json'].schema.required.sort()).toEqual(['brand', 'category_code', 'name', 'product_id']);
    const props = post.requestBody.content['application/json'].schema.properties;
    expect(props.name).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(props.brand).toMatchObject({ minLength: 1, maxLength: 100 });
    expect(props.product_id).toMatchObject({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9]+$' });
    expect(props.description).toMatchObject({ maxLength: 2000 });
    expect(props.attributes).toMatchObject({
      type: 'object',
      maxProperties: 50,
      propertyNames: { minLength: 1, maxLength: 64, not: { enum: ['__proto__', 'constructor', 'prototype'] } },
      additionalProperties: { type: 'string', maxLength: 500 },
    });
    expect(get.parameters).toEqual([expect.objectContaining({ name: 'svc_code', in: 'path', required: true })]);
  });

  it('documents GET /_emulator/categories', async () => {
    const { api } = makeTestApp();
    const doc = (await api.get('/_emulator/openapi.json').expect(200)).body;
    expect(doc.paths['/_emulator/categories'].get.responses['200'].content['application/json'].schema.type).toBe('array');
  });
});

describe('the served OpenAPI document is cacheable', () => {
  it('has a strong ETag; If-None-Match naming it (alone, in a list, weak, or *) answers 304 without a body, another tag the document', async () => {
    const { app } = makeTestApp();
    const first = await request(app).get('/_emulator/openapi.json').expect(200);
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    for (const asked of [tag, `"other", ${tag}`, `W/${tag}`, '*']) {
      const again = await request(app).get('/_emulator/openapi.json').set('if-none-match', asked);
      expect(again.status, asked).toBe(304);
      expect(again.text, asked).toBeFalsy();
      expect(again.headers.etag).toBe(tag);
    }
    const other = await request(app).get('/_emulator/openapi.json').set('if-none-match', '"other"').expect(200);
    expect(other.body).toEqual(first.body);
    // Only a leading W/ marks a weak tag: the same letters inside a tag make another tag.
    await request(app)
      .get('/_emulator/openapi.json')
      .set('if-none-match', `${tag.slice(0, 5)}W/${tag.slice(5)}`)
      .expect(200);
    // Another emulator with the same public URL serves the same document, under the same tag.
    expect((await request(makeTestApp().app).get('/_emulator/openapi.json')).headers.etag).toBe(tag);
  });
});
