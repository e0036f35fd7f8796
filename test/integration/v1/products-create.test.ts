import { describe, expect, it } from 'vitest';
import { START, START_ISO, makeTestApp, type Api } from '../../helpers/test-app.js';
import { BEARER, PREFIXES, expectedCode, validProduct } from '../../helpers/v1-helpers.js';

const MiB = 1024 * 1024;

/** The product is absent: a rejected create left no trace. */
async function expectAbsent(api: Api, code: string) {
  const res = await api.get(`/api/v1/products/${code}`).set('Authorization', BEARER).expect(404);
  expect(res.body.error.code).toBe('NOT_FOUND');
}

describe.each(PREFIXES)('POST %s/products', (prefix) => {
  it('creates a product: 201, the bare Product, and a Location header with its lookup URL', async () => {
    const { api } = makeTestApp();
    const res = await api
      .post(`${prefix}/products`)
      .set('Authorization', BEARER)
      .send(validProduct({ product_id: 'nb5', description: 'Dot grid, 96 sheets.' }))
      .expect(201);
    const code = expectedCode('701', 'NB5');
    expect(res.body).toEqual({
      svc_code: code,
      name: 'Recycled Notebook A5',
      brand: 'Paperleaf',
      category: 'Office supplies',
      description: 'Dot grid, 96 sheets.',
      sustainability: { carbon_footprint: '0.6 kgCO2e', certifications: ['Blue Angel'] },
      created_at: START_ISO,
      updated_at: START_ISO,
    });
    expect(res.headers.location).toBe(`http://emulator.test${prefix}/products/${code}`);
    const again = await api.get(`${prefix}/products/${code}`).set('Authorization', BEARER).expect(200);
    expect(again.body).toEqual(res.body);
  });

  it('stamps created_at and updated_at from the emulator clock', async () => {
    const { api, advance } = makeTestApp();
    advance(90 * 60 * 1000);
    const res = await api.post(`${prefix}/products`).set('Authorization', BEARER).send(validProduct()).expect(201);
    const iso = new Date(START + 90 * 60 * 1000).toISOString();
    expect(res.body.created_at).toBe(iso);
    expect(res.body.updated_at).toBe(iso);
  });

  it('defaults description to the empty string and ignores unknown fields', async () => {
    const { api } = makeTestApp();
    const res = await api
      .post(`${prefix}/products`)
      .set('Authorization', BEARER)
      .send(validProduct({ colour: 'red', svc_code: '1-X-00' }))
      .expect(201);
    expect(res.body.description).toBe('');
    expect(res.body.svc_code).toBe(expectedCode('701', 'NB5'));
    expect(res.body).not.toHaveProperty('colour');
  });

  it.each([
    ['the same product_id', 'NB5'],
    ['the product_id in lower case', 'nb5'],
    ['the product_id in mixed case', 'Nb5'],
  ])('answers 409 PRODUCT_EXISTS for %s again, leaving the first untouched', async (_name, productId) => {
    const { api } = makeTestApp();
    await api.post(`${prefix}/products`).set('Authorization', BEARER).send(validProduct()).expect(201);
    const res = await api
      .post(`${prefix}/products`)
      .set('Authorization', BEARER)
      .send(validProduct({ product_id: productId, name: 'Other' }))
      .expect(409);
    const code = expectedCode('701', 'NB5');
    expect(res.body).toEqual({ error: { code: 'PRODUCT_EXISTS', message: `A product with code ${code} already exists` } });
    const kept = await api.get(`${prefix}/products/${code}`).set('Authorization', BEARER).expect(200);
    expect(kept.body.name).toBe('Recycled Notebook A5');
  });

  it('answers 409 for a fixture product created again', async () => {
    const { api } = makeTestApp();
    const res = await api
      .post(`${prefix}/products`)
      .set('Authorization', BEARER)
      .send(validProduct({ category_code: '101', product_id: 'ColdBrew330' }))
      .expect(409);
    expect(res.body.error.code).toBe('PRODUCT_EXISTS');
  });

  it('treats the same product_id in another category as another product', async () => {
    const { api } = makeTestApp();
    await api
      .post(`${prefix}/products`)
      .set('Authorization', BEARER)
      .send(validProduct({ category_code: '701' }))
      .expect(201);
    const res = await api
      .post(`${prefix}/products`)
      .set('Authorization', BEARER)
      .send(validProduct({ category_code: '102' }))
      .expect(201);
    expect(res.body.svc_code).toBe(expectedCode('102', 'NB5'));
  });
});

describe('field limits: at the bound 201, just over 400 naming the field', () => {
  const a = (n: number) => 'a'.repeat(n);
  const attrs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));

  it.each([
    ['name of 1', { name: 'x' }],
    ['name of 200', { name: a(200) }],
    ['brand of 1', { brand: 'x' }],
    ['brand of 100', { brand: a(100) }],
    ['product_id of 1', { product_id: '7' }],
    ['product_id of 32', { product_id: 'Z'.repeat(32) }],
    ['category_code of 3 digits from the fixtures', { category_code: '601' }],
    ['description of 0', { description: '' }],
    ['description of 2000', { description: a(2000) }],
    ['attributes empty', { attributes: {} }],
    ['attributes of 50 entries', { attributes: attrs(50) }],
    ['attribute key of 1', { attributes: { k: 'v' } }],
    ['attribute key of 64', { attributes: { [a(64)]: 'v' } }],
    ['attribute value of 0', { attributes: { k: '' } }],
    ['attribute value of 500', { attributes: { k: a(500) } }],
    ['non-ASCII text in name and brand', { name: 'Café crème', brand: 'Ünïcødé' }],
  ])('accepts %s', async (_name, overrides) => {
    const { api } = makeTestApp();
    const res = await api.post('/api/v1/products').set('Authorization', BEARER).send(validProduct(overrides)).expect(201);
    // stored as sent: the text fields come back unchanged, the ids make the product code, and
    // attributes are kept but not part of the Product (docs/api-v1.md)
    const sent = { ...validProduct(), ...overrides } as Record<string, unknown>;
    const { name, brand, description } = sent;
    expect(res.body).toMatchObject({ name, brand, ...(description === undefined ? {} : { description }) });
    expect(res.body.svc_code).toBe(expectedCode(String(sent.category_code), String(sent.product_id).toUpperCase()));
    expect(res.body).not.toHaveProperty('attributes');
  });

  it('accepts every field at its upper bound at once', async () => {
    const { api } = makeTestApp();
    const body = validProduct({
      name: a(200),
      brand: a(100),
      product_id: 'Q'.repeat(32),
      description: a(2000),
      attributes: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${String(i).padStart(2, '0')}${a(62)}`, a(500)])),
    });
    const res = await api.post('/api/v1/products').set('Authorization', BEARER).send(body).expect(201);
    expect(res.body.name).toHaveLength(200);
    expect(res.body.svc_code).toBe(expectedCode('701', 'Q'.repeat(32)));
  });

  it.each([
    // required
    ['name missing', { name: undefined }, '"name" is required'],
    ['brand missing', { brand: undefined }, '"brand" is required'],
    ['category_code missing', { category_code: undefined }, '"category_code" is required'],
    ['product_id missing', { product_id: undefined }, '"product_id" is required'],
    // name, brand
    ['name empty', { name: '' }, '"name" is not allowed to be empty'],
    ['name of 201', { name: a(201) }, '"name" length must be less than or equal to 200 characters long'],
    ['name a number', { name: 5 }, '"name" must be a string'],
    ['name null', { name: null }, '"name" must be a string'],
    ['brand empty', { brand: '' }, '"brand" is not allowed to be empty'],
    ['brand of 101', { brand: a(101) }, '"brand" length must be less than or equal to 100 characters long'],
    ['brand an object', { brand: {} }, '"brand" must be a string'],
    // category_code
    ['category_code empty', { category_code: '' }, '"category_code" is not allowed to be empty'],
    ['category_code a number', { category_code: 701 }, '"category_code" must be a string'],
    ['category_code with a letter', { category_code: '70a' }, '"category_code" must contain only digits 0-9'],
    ['category_code negative', { category_code: '-701' }, '"category_code" must contain only digits 0-9'],
    ['category_code of 9 digits', { category_code: '123456789' }, '"category_code" length must be less than or equal to 8 characters long'],
    // product_id
    ['product_id empty', { product_id: '' }, '"product_id" is not allowed to be empty'],
    ['product_id of 33', { product_id: 'Z'.repeat(33) }, '"product_id" length must be less than or equal to 32 characters long'],
    ['product_id with a hyphen', { product_id: 'NB-5' }, '"product_id" must contain only letters A-Z, a-z and digits 0-9'],
    ['product_id with a space', { product_id: 'NB 5' }, '"product_id" must contain only letters A-Z, a-z and digits 0-9'],
    ['product_id with a non-ASCII letter', { product_id: 'ÄPFEL' }, '"product_id" must contain only letters A-Z, a-z and digits 0-9'],
    ['product_id with a long s', { product_id: '\u017fOAP' }, '"product_id" must contain only letters A-Z, a-z and digits 0-9'],
    ['product_id a number', { product_id: 5 }, '"product_id" must be a string'],
    // description
    ['description of 2001', { description: a(2001) }, '"description" length must be less than or equal to 2000 characters long'],
    ['description null', { description: null }, '"description" must be a string'],
    ['description a number', { description: 1 }, '"description" must be a string'],
    // attributes
    ['attributes an array', { attributes: ['a'] }, '"attributes" must be of type object'],
    ['attributes a string', { attributes: 'a=b' }, '"attributes" must be of type object'],
    ['attributes null', { attributes: null }, '"attributes" must be of type object'],
    ['attributes of 51 entries', { attributes: attrs(51) }, '"attributes" must have less than or equal to 50 keys'],
    ['attribute key of 65', { attributes: { [a(65)]: 'v' } }, '"attributes" key "aaaaaaaaaaaaaaaa…" is longer than 64 characters'],
    ['attribute key empty', { attributes: { '': 'v' } }, '"attributes" must not have an empty key'],
    ['attribute value of 501', { attributes: { k: a(501) } }, '"attributes.k" length must be less than or equal to 500 characters long'],
    ['attribute value a number', { attributes: { k: 1 } }, '"attributes.k" must be a string'],
    ['attribute value null', { attributes: { k: null } }, '"attributes.k" must be a string'],
    ['attribute value an object', { attributes: { k: { x: 'y' } } }, '"attributes.k" must be a string'],
  ])('rejects %s', async (_name, overrides, message) => {
    const { api } = makeTestApp();
    const res = await api.post('/api/v1/products').set('Authorization', BEARER).send(validProduct(overrides)).expect(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message } });
    await expectAbsent(api, '701-NB5');
  });

  it.each([['999'], ['0701'], ['1'], ['12345678']])('rejects category_code %s that is no category of the fixtures: 400 UNKNOWN_CATEGORY', async (code) => {
    const { api } = makeTestApp();
    const res = await api
      .post('/api/v1/products')
      .set('Authorization', BEARER)
      .send(validProduct({ category_code: code }))
      .expect(400);
    expect(res.body).toEqual({
      error: { code: 'UNKNOWN_CATEGORY', message: `"category_code" ${code} is not a known category (GET /_emulator/categories lists them)` },
    });
    await expectAbsent(api, `${code}-NB5`);
  });
});

describe('attributes and prototype pollution', () => {
  // Decision: the three names are rejected with 400 (zod alone would drop `__proto__` silently),
  // and stored attributes live in a null-prototype object all the same.
  it.each([
    ['__proto__', '{"__proto__":"x"}'],
    ['__proto__ with an object value', '{"__proto__":{"polluted":"yes"}}'],
    ['constructor', '{"constructor":"x"}'],
    ['prototype', '{"prototype":"x"}'],
    ['__proto__ next to valid keys', '{"color":"red","__proto__":{"polluted":"yes"}}'],
  ])('rejects the reserved key %s with 400 naming it', async (_name, attributesJson) => {
    const { api } = makeTestApp();
    const raw = `{"name":"n","brand":"b","category_code":"701","product_id":"NB5","attributes":${attributesJson}}`;
    const res = await api.post('/v1/products').set('Authorization', BEARER).set('Content-Type', 'application/json').send(raw).expect(400);
    const key = /"(__proto__|constructor|prototype)"/.exec(attributesJson)![1];
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message: `"attributes.${key}" is not allowed (reserved name)` } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await expectAbsent(api, '701-NB5');
  });

  it('accepts keys that merely look like Object.prototype members', async () => {
    const { api } = makeTestApp();
    const res = await api
      .post('/v1/products')
      .set('Authorization', BEARER)
      .send(validProduct({ attributes: { toString: 'a', hasOwnProperty: 'b', valueOf: 'c', __defineGetter__: 'd' } }))
      .expect(201);
    expect(res.body.sustainability).toEqual({ carbon_footprint: '0.6 kgCO2e', certifications: ['Blue Angel'] });
  });

  it('stores attributes in a null-prototype object', async () => {
    const { api, deps } = makeTestApp();
    await api
      .post('/v1/products')
      .set('Authorization', BEARER)
      .send(validProduct({ attributes: { color: 'red' } }))
      .expect(201);
    const stored = deps.store.org('00000000-0000-4000-8000-000000000001')!.products.get('701-NB5')!;
    expect(Object.getPrototypeOf(stored.attributes)).toBeNull();
    expect({ ...stored.attributes }).toEqual({ color: 'red' });
  });
});

describe('sustainability: category defaults and attribute overrides', () => {
  it('uses the category defaults for every category of the fixtures', async () => {
    const { api } = makeTestApp();
    const categories = (await api.get('/_emulator/categories').expect(200)).body as Array<{
      code: string;
      label: string;
      carbon_footprint: string;
      certifications: string[];
    }>;
    expect(categories.length).toBeGreaterThanOrEqual(8);
    for (const c of categories) {
      const res = await api
        .post('/api/v1/products')
        .set('Authorization', BEARER)
        .send(validProduct({ category_code: c.code }))
        .expect(201);
      expect(res.body.category).toBe(c.label);
      expect(res.body.sustainability).toEqual({ carbon_footprint: c.carbon_footprint, certifications: c.certifications });
    }
  });

  it.each([
    ['carbon_footprint only', { carbon_footprint: '3.2 kgCO2e' }, { carbon_footprint: '3.2 kgCO2e', certifications: ['Blue Angel'] }],
    ['certifications only', { certifications: 'FSC, Nordic Swan' }, { carbon_footprint: '0.6 kgCO2e', certifications: ['FSC', 'Nordic Swan'] }],
    ['both', { carbon_footprint: '1200 g CO2e', certifications: 'EU Ecolabel' }, { carbon_footprint: '1200 g CO2e', certifications: ['EU Ecolabel'] }],
    ['empty certifications: none', { certifications: '' }, { carbon_footprint: '0.6 kgCO2e', certifications: [] }],
    ['certifications with blanks', { certifications: ' A ,, B , ' }, { carbon_footprint: '0.6 kgCO2e', certifications: ['A', 'B'] }],
    ['unrelated attributes', { color: 'green', weight: '200 g' }, { carbon_footprint: '0.6 kgCO2e', certifications: ['Blue Angel'] }],
  ])('overrides with %s', async (_name, attributes, sustainability) => {
    const { api } = makeTestApp();
    const res = await api.post('/api/v1/products').set('Authorization', BEARER).send(validProduct({ attributes })).expect(201);
    expect(res.body.sustainability).toEqual(sustainability);
    const again = await api.get(`/api/v1/products/701-NB5`).set('Authorization', BEARER).expect(200);
    expect(again.body.sustainability).toEqual(sustainability);
  });

  it.each(['12', '12kgCO2e', '-1 kg', '1e3 kg', '.5 kg', 'kg 12', ' 12 kg', '12 kg ', '12  kg', 'low', ''])(
    'rejects attributes.carbon_footprint %j: 400 INVALID_CARBON_FOOTPRINT',
    async (footprint) => {
      const { api } = makeTestApp();
      const res = await api
        .post('/api/v1/products')
        .set('Authorization', BEARER)
        .send(validProduct({ attributes: { carbon_footprint: footprint } }))
        .expect(400);
      expect(res.body).toEqual({
        error: { code: 'INVALID_CARBON_FOOTPRINT', message: '"attributes.carbon_footprint" must read "<number> <unit>", such as "12.5 kgCO2e"' },
      });
      await expectAbsent(api, '701-NB5');
    },
  );
});

describe.each(PREFIXES)('request bodies under %s', (prefix) => {
  it('accepts a body of exactly 1 MiB', async () => {
    const { api } = makeTestApp();
    const json = JSON.stringify(validProduct());
    const body = json.slice(0, -1) + ' '.repeat(MiB - Buffer.byteLength(json)) + '}';
    expect(Buffer.byteLength(body)).toBe(MiB);
    await api.post(`${prefix}/products`).set('Authorization', BEARER).set('Content-Type', 'application/json').send(body).expect(201);
  });

  it('answers 413 PAYLOAD_TOO_LARGE for 1 MiB + 1 byte, in the v1 shape', async () => {
    const { api } = makeTestApp();
    const json = JSON.stringify(validProduct());
    const body = json.slice(0, -1) + ' '.repeat(MiB + 1 - Buffer.byteLength(json)) + '}';
    expect(Buffer.byteLength(body)).toBe(MiB + 1);
    const res = await api.post(`${prefix}/products`).set('Authorization', BEARER).set('Content-Type', 'application/json').send(body).expect(413);
    expect(res.body).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body exceeds the limit of 1mb' } });
    await expectAbsent(api, '701-NB5');
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['application/xml']])('answers 415 for Content-Type %s', async (type) => {
    const { api } = makeTestApp();
    const res = await api.post(`${prefix}/products`).set('Authorization', BEARER).set('Content-Type', type).send(JSON.stringify(validProduct())).expect(415);
    expect(res.body).toEqual({ error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: `Content-Type ${type} is not supported; send application/json` } });
    await expectAbsent(api, '701-NB5');
  });

  it('answers 415 for a body sent without a Content-Type, saying none was sent', async () => {
    const { api } = makeTestApp();
    const res = await api.post(`${prefix}/products`).set('Authorization', BEARER).send(JSON.stringify(validProduct())).unset('Content-Type').expect(415);
    expect(res.body).toEqual({ error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Content-Type (none) is not supported; send application/json' } });
    await expectAbsent(api, '701-NB5');
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE for a Content-Encoding other than identity, gzip, deflate or br', async () => {
    const { api } = makeTestApp();
    const res = await api
      .post(`${prefix}/products`)
      .set('Authorization', BEARER)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'compress')
      .send(JSON.stringify(validProduct()))
      .expect(415);
    expect(res.body).toEqual({
      error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Content-Encoding compress is not supported; send identity, gzip, deflate or br' },
    });
    await expectAbsent(api, '701-NB5');
  });

  it.each([
    ['{"name": ', 'at position 9 (line 1, column 10): the body ends too early'],
    ['{name: "x"}', 'at position 1 (line 1, column 2): expected a property name in double quotes'],
    ["{'name':'x'}", 'at position 1 (line 1, column 2): expected a property name in double quotes'],
    ['{"name":"x",}', 'at position 12 (line 1, column 13): expected a property name in double quotes'],
  ])('answers 400 for malformed JSON %j, saying where', async (raw, where) => {
    const { api } = makeTestApp();
    const res = await api.post(`${prefix}/products`).set('Authorization', BEARER).set('Content-Type', 'application/json').send(raw).expect(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message: `Request body is not valid JSON ${where}` } });
  });

  it.each([
    ['an array', '[]', '"value" must be of type object'],
    ['no body', undefined, '"name" is required'],
  ])('answers 400 for %s', async (_name, raw, message) => {
    const { api } = makeTestApp();
    const req = api.post(`${prefix}/products`).set('Authorization', BEARER);
    const res = await (raw === undefined ? req : req.set('Content-Type', 'application/json').send(raw)).expect(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message } });
  });
});
