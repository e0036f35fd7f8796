import { describe, expect, it } from 'vitest';
import { START_ISO, makeTestApp } from '../../helpers/test-app.js';
import { BEARER, PREFIXES, expectedCheckDigits, expectedCode, validProduct } from '../../helpers/v1-helpers.js';

const COLDBREW = {
  svc_code: '101-COLDBREW330-73',
  name: 'Cold Brew Coffee 330 ml',
  brand: 'Northbean',
  category: 'Beverages',
  description: 'Ready-to-drink cold brew in a recyclable can.',
  sustainability: { carbon_footprint: '0.35 kgCO2e', certifications: ['Fairtrade'] },
  created_at: START_ISO,
  updated_at: START_ISO,
};

describe.each(PREFIXES)('GET %s/products/{svc_code}', (prefix) => {
  it.each([
    ['short form', '101-COLDBREW330'],
    ['short form, lower case', '101-coldbrew330'],
    ['short form, mixed case', '101-ColdBrew330'],
    ['full code', '101-COLDBREW330-73'],
    ['full code, lower case', '101-coldbrew330-73'],
    ['full code, mixed case', '101-coldBREW330-73'],
  ])('finds a fixture product by its %s (%s)', async (_name, code) => {
    const { api } = makeTestApp();
    const res = await api.get(`${prefix}/products/${code}`).set('Authorization', BEARER).expect(200);
    expect(res.body).toEqual(COLDBREW);
  });

  it('serves the fixture products with their sustainability overrides', async () => {
    const { api } = makeTestApp();
    const tee = await api.get(`${prefix}/products/201-tee42`).set('Authorization', BEARER).expect(200);
    expect(tee.body).toMatchObject({
      svc_code: expectedCode('201', 'TEE42'),
      category: 'Apparel',
      sustainability: { carbon_footprint: '8.5 kgCO2e', certifications: ['GOTS', 'Fair Wear'] },
    });
    const headphones = await api.get(`${prefix}/products/301-HP900`).set('Authorization', BEARER).expect(200);
    expect(headphones.body).toMatchObject({
      svc_code: expectedCode('301', 'HP900'),
      category: 'Consumer electronics',
      sustainability: { carbon_footprint: '32.5 kgCO2e', certifications: ['ENERGY STAR', 'EPEAT Silver'] },
    });
  });

  it.each([
    ['one off', '101-COLDBREW330-74'],
    ['swapped', '101-COLDBREW330-37'],
    ['00', '101-COLDBREW330-00'],
    ['99', '101-coldbrew330-99'],
  ])('answers 400 INVALID_CHECK_DIGITS for wrong check digits (%s)', async (_name, code) => {
    const { api } = makeTestApp();
    const res = await api.get(`${prefix}/products/${code}`).set('Authorization', BEARER).expect(400);
    expect(res.body).toEqual({
      error: { code: 'INVALID_CHECK_DIGITS', message: `"${code}" has wrong check digits (ISO 7064 MOD 97-10): expected 101-COLDBREW330-73` },
    });
  });

  it('answers 400 INVALID_CHECK_DIGITS even when no product has that code', async () => {
    const { api } = makeTestApp();
    const wrong = (Number(expectedCheckDigits('999', 'NOPE')) + 1).toString().padStart(2, '0');
    const res = await api.get(`${prefix}/products/999-NOPE-${wrong}`).set('Authorization', BEARER).expect(400);
    expect(res.body.error.code).toBe('INVALID_CHECK_DIGITS');
  });

  it.each([
    ['no hyphen', 'COLDBREW330'],
    ['category only', '101'],
    ['letters in the category', '1O1-COLDBREW330'],
    ['a hyphen inside the product id', '101-COLD-BREW330'],
    ['one check digit', '101-COLDBREW330-7'],
    ['three check digits', '101-COLDBREW330-737'],
    ['a letter among the check digits', '101-COLDBREW330-7A'],
    ['an empty product id', '101--73'],
    ['a trailing hyphen', '101-COLDBREW330-'],
    ['an underscore', '101_COLDBREW330'],
    ['a space (encoded)', '101-COLD%20BREW330'],
    ['a non-ASCII letter (encoded)', '101-%C3%84PFEL'],
    ['a 33-character product id', `101-${'A'.repeat(33)}`],
    ['a 9-digit category', '123456789-X'],
  ])('answers 400 INVALID_PRODUCT_CODE for %s', async (_name, code) => {
    const { api } = makeTestApp();
    const res = await api.get(`${prefix}/products/${code}`).set('Authorization', BEARER).expect(400);
    expect(res.body.error.code).toBe('INVALID_PRODUCT_CODE');
    expect(res.body.error.message).toBe(
      `"${decodeURIComponent(code)}" is not a product code: expected {category_code}-{PRODUCT_ID} or {category_code}-{PRODUCT_ID}-{check digits}`,
    );
  });

  it('echoes at most 80 characters of a long invalid code', async () => {
    const { api } = makeTestApp();
    const code = `101-${'A'.repeat(300)}`;
    const res = await api.get(`${prefix}/products/${code}`).set('Authorization', BEARER).expect(400);
    expect(res.body.error).toEqual({
      code: 'INVALID_PRODUCT_CODE',
      message: `"${code.slice(0, 80)}…" is not a product code: expected {category_code}-{PRODUCT_ID} or {category_code}-{PRODUCT_ID}-{check digits}`,
    });
  });

  it('echoes an invalid code of exactly 80 characters whole, without an ellipsis', async () => {
    const { api } = makeTestApp();
    const code = `101-${'A'.repeat(76)}`;
    expect(code).toHaveLength(80);
    const res = await api.get(`${prefix}/products/${code}`).set('Authorization', BEARER).expect(400);
    expect(res.body.error).toEqual({
      code: 'INVALID_PRODUCT_CODE',
      message: `"${code}" is not a product code: expected {category_code}-{PRODUCT_ID} or {category_code}-{PRODUCT_ID}-{check digits}`,
    });
  });

  it.each([
    ['short form of an unknown product', '101-NOPE', 'No product found with code 101-NOPE'],
    ['short form in lower case', '101-nope', 'No product found with code 101-NOPE'],
    ['full code of an unknown product', expectedCode('101', 'NOPE'), `No product found with code ${expectedCode('101', 'NOPE')}`],
    ['short form in an unknown category', '999-COLDBREW330', 'No product found with code 999-COLDBREW330'],
    ['a fixture product id under another category', '102-COLDBREW330', 'No product found with code 102-COLDBREW330'],
  ])('answers 404 NOT_FOUND for the %s', async (_name, code, message) => {
    const { api } = makeTestApp();
    const res = await api.get(`${prefix}/products/${code}`).set('Authorization', BEARER).expect(404);
    expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message } });
  });
});

describe('check digits, computed independently of the emulator', () => {
  it.each([
    ['letters only', '101', 'COLDBREW'],
    ['digits only', '102', '9999'],
    ['mixed, lower case', '202', 'a1b2c3'],
    ['a single digit', '501', '0'],
    ['a single letter', '601', 'z'],
    ['32 letters', '701', 'Z'.repeat(32)],
    ['check digits below 10 (zero-padded)', '101', 'P18'],
    ['check digits 98', '301', 'Q26'],
  ])('%s: %s/%s', async (_name, category, productId) => {
    const { api } = makeTestApp();
    const code = expectedCode(category, productId);
    const created = await api
      .post('/api/v1/products')
      .set('Authorization', BEARER)
      .send(validProduct({ category_code: category, product_id: productId }))
      .expect(201);
    expect(created.body.svc_code).toBe(code);
    expect(created.body.svc_code).toMatch(/^\d+-[A-Z0-9]+-\d{2}$/);
    for (const prefix of PREFIXES) {
      for (const form of [code, code.toLowerCase(), `${category}-${productId}`, `${category}-${productId.toUpperCase()}`]) {
        const res = await api.get(`${prefix}/products/${form}`).set('Authorization', BEARER).expect(200);
        expect(res.body.svc_code).toBe(code);
      }
    }
  });

  it('covers the zero-padded and the 98 cases in the vectors above', () => {
    expect(expectedCheckDigits('101', 'P18')).toBe('02');
    expect(expectedCheckDigits('301', 'Q26')).toBe('98');
  });
});

describe('products and the emulator clock', () => {
  it('keeps created_at of a product when time moves on', async () => {
    const { api, advance } = makeTestApp();
    await api.post('/v1/products').set('Authorization', BEARER).send(validProduct()).expect(201);
    advance(24 * 60 * 60 * 1000);
    const res = await api.get('/v1/products/701-NB5').set('Authorization', BEARER).expect(200);
    expect(res.body.created_at).toBe(START_ISO);
    expect(res.body.updated_at).toBe(START_ISO);
  });

  it('a reset (deps.reset) brings back the fixture products only', async () => {
    const { api, deps } = makeTestApp();
    await api.post('/v1/products').set('Authorization', BEARER).send(validProduct()).expect(201);
    deps.reset();
    const gone = await api.get('/v1/products/701-NB5').set('Authorization', BEARER).expect(404);
    expect(gone.body).toEqual({ error: { code: 'NOT_FOUND', message: 'No product found with code 701-NB5' } });
    const fixture = await api.get('/v1/products/101-COLDBREW330').set('Authorization', BEARER).expect(200);
    expect(fixture.body).toMatchObject({ name: 'Cold Brew Coffee 330 ml', brand: 'Northbean' });
  });
});
