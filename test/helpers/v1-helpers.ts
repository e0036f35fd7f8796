// Shared by the v1 integration tests. The check digits are computed here independently of the
// emulator (the whole number as a BigInt, letters expanded A=10 … Z=35).
import { API_KEY, fixtures } from './test-app.js';
import type { Fixtures } from '../../src/store/fixtures.js';

export const PREFIXES = ['/api/v1', '/v1'] as const;
export const BEARER = `Bearer ${API_KEY}`;

export function expectedCheckDigits(categoryCode: string, productId: string): string {
  const digits = [...`${categoryCode}${productId.toUpperCase()}`].map((c) => (/[0-9]/.test(c) ? c : String(c.charCodeAt(0) - 55))).join('');
  return String(98n - (BigInt(`${digits}00`) % 97n)).padStart(2, '0');
}

export function expectedCode(categoryCode: string, productId: string): string {
  return `${categoryCode}-${productId.toUpperCase()}-${expectedCheckDigits(categoryCode, productId)}`;
}

export const validProduct = (overrides: Record<string, unknown> = {}) => ({
  name: 'Recycled Notebook A5',
  brand: 'Paperleaf',
  category_code: '701',
  product_id: 'NB5',
  ...overrides,
});

export const SECOND_ORG_ID = '00000000-0000-4000-8000-000000000002';
export const SECOND_ORG_KEY = 'second-org-api-key';

/** The default fixtures plus a second organization with a product of the same code as one of the first's. */
export function twoOrgFixtures(): Fixtures {
  const f = fixtures();
  f.organizations.push({
    id: SECOND_ORG_ID,
    name: 'Second Org',
    api_key: SECOND_ORG_KEY,
    products: [{ category_code: '201', product_id: 'TEE42', name: 'Second Org Tee', brand: 'Other', description: '', attributes: {} }],
  });
  return f;
}
