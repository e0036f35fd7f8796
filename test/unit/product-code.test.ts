import { describe, expect, it } from 'vitest';
import { checkDigitsFor, fullCode, mod97CheckDigits, normalizeProductId, parseProductCode, shortCode } from '../../src/domain/products/product-code.js';
import { effectiveSustainability, isCarbonFootprint, parseCertifications } from '../../src/domain/products/sustainability.js';
import type { Category } from '../../src/domain/models.js';

/** Independent reference: the whole number as a BigInt, letters expanded A=10 … Z=35. */
function referenceCheckDigits(text: string): string {
  const digits = [...text.toUpperCase()].map((c) => (/[0-9]/.test(c) ? c : String(c.charCodeAt(0) - 55))).join('');
  return String(98n - (BigInt(`${digits}00`) % 97n)).padStart(2, '0');
}

/** Independent reference: `text` followed by its check digits passes MOD 97-10 (remainder 1). */
function passesMod97(textWithCheckDigits: string): boolean {
  if (!/^[0-9A-Za-z]+$/.test(textWithCheckDigits)) return false;
  const digits = [...textWithCheckDigits.toUpperCase()].map((c) => (/[0-9]/.test(c) ? c : String(c.charCodeAt(0) - 55))).join('');
  return BigInt(digits) % 97n === 1n;
}

describe('mod97CheckDigits (ISO 7064 MOD 97-10)', () => {
  it.each([
    // The ISO 7064 worked example, and two IBANs (BBAN + country code → the IBAN's check digits).
    ['794', '44'],
    ['WEST12345698765432GB', '82'],
    ['370400440532013000DE', '89'],
    // Product vectors (category code + PRODUCT_ID), literal so they pin the implementation.
    ['101COLDBREW330', '73'],
    ['201TEE42', '74'],
    ['301HP900', '15'],
    ['1010', '75'],
  ])('%s → %s', (text, expected) => {
    expect(mod97CheckDigits(text)).toBe(expected);
    expect(referenceCheckDigits(text)).toBe(expected);
  });

  it.each([
    ['101P18', '02'],
    ['101P17', '05'],
    ['101P48', '09'],
    ['301Q26', '98'],
  ])('zero-pads and spans 02..98: %s → %s', (text, expected) => {
    expect(mod97CheckDigits(text)).toBe(expected);
    expect(referenceCheckDigits(text)).toBe(expected);
  });

  it.each(['7', '0', 'A', 'Z', '12345678ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ', '99999999' + '9'.repeat(32), '1A2B3C4D5E6F7G8H9I0J'])(
    'matches the BigInt reference for %s',
    (text) => {
      expect(mod97CheckDigits(text)).toBe(referenceCheckDigits(text));
    },
  );

  it('treats lower-case letters like upper-case ones', () => {
    expect(mod97CheckDigits('101coldbrew330')).toBe('73');
  });

  it('reads the first and last letters, a and z, like A and Z', () => {
    expect(mod97CheckDigits('101AZ')).toBe('86');
    expect(mod97CheckDigits('101az')).toBe('86');
  });

  // ':' and '@' lie between the digits and A, '[' and '`' between Z and a.
  it.each(['-', ' ', 'ä', '1-2', ':', '@', '[', '`'])('refuses a character that is neither letter nor digit: %j', (text) => {
    expect(() => mod97CheckDigits(text)).toThrow(RangeError);
  });

  it('names the character it refuses', () => {
    expect(() => mod97CheckDigits('101-X')).toThrow('mod97CheckDigits: "-" is not a letter or digit');
  });
});

describe('code composition', () => {
  it('upper-cases ASCII letters of the product id only', () => {
    expect(normalizeProductId('aBc9z')).toBe('ABC9Z');
  });

  it('builds the short form and the full code', () => {
    expect(shortCode('101', 'coldBrew330')).toBe('101-COLDBREW330');
    expect(checkDigitsFor('101', 'coldbrew330')).toBe('73');
    expect(fullCode('101', 'coldbrew330')).toBe('101-COLDBREW330-73');
  });

  it.each([
    ['101', 'COLDBREW330'],
    ['201', 'tee42'],
    ['12345678', 'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ'],
    ['7', '0'],
    ['501', 'a1b2c3d4'],
  ])('full code of %s/%s carries the reference check digits and passes the MOD 97-10 check', (category, id) => {
    const code = fullCode(category, id);
    const cc = referenceCheckDigits(`${category}${id}`);
    expect(code).toBe(`${category}-${id.toUpperCase()}-${cc}`);
    expect(passesMod97(code.replace(/-/g, ''))).toBe(true);
  });
});

describe('parseProductCode', () => {
  it.each([
    ['101-COLDBREW330', 'short'],
    ['101-coldbrew330', 'short'],
    ['101-ColdBrew330', 'short'],
    ['101-COLDBREW330-73', 'full'],
    ['101-coldbrew330-73', 'full'],
  ] as const)('reads %s as the %s form', (input, form) => {
    expect(parseProductCode(input)).toEqual({
      ok: true,
      form,
      categoryCode: '101',
      productId: 'COLDBREW330',
      short: '101-COLDBREW330',
      full: '101-COLDBREW330-73',
    });
  });

  it.each([['101-COLDBREW330-74'], ['101-COLDBREW330-00'], ['101-COLDBREW330-37'], ['101-coldbrew330-99']])(
    'reports wrong check digits in %s, with the expected code',
    (input) => {
      expect(parseProductCode(input)).toEqual({ ok: false, reason: 'INVALID_CHECK_DIGITS', expected: '101-COLDBREW330-73' });
    },
  );

  it.each([
    [''],
    ['101'],
    ['COLDBREW330'],
    ['101-'],
    ['-COLDBREW330'],
    ['101--COLDBREW330'],
    ['101-COLDBREW330-'],
    ['101-COLDBREW330-7'],
    ['101-COLDBREW330-737'],
    ['101-COLDBREW330-7A'],
    ['101-COLD-BREW-73'],
    ['1O1-COLDBREW330'],
    ['123456789-X'],
    [`101-${'A'.repeat(33)}`],
    ['101-COLD BREW'],
    [' 101-COLDBREW330'],
    ['101-COLDBREW330 '],
    ['101_COLDBREW330'],
    ['101-ÄPFEL'],
    // Non-ASCII letters that upper-case to ASCII ones must not pass for letters.
    ['101-\u017fOAP'],
    ['101-M\u0131LK'],
    ['١٠١-X'],
  ])('rejects %j as INVALID_PRODUCT_CODE', (input) => {
    expect(parseProductCode(input)).toEqual({ ok: false, reason: 'INVALID_PRODUCT_CODE' });
  });

  it('accepts the bounds: 8-digit category, 32-character product id', () => {
    const id = 'A'.repeat(32);
    const parsed = parseProductCode(`12345678-${id.toLowerCase()}`);
    expect(parsed).toMatchObject({ ok: true, form: 'short', categoryCode: '12345678', productId: id });
  });
});

describe('sustainability', () => {
  const category: Category = { code: '301', label: 'Consumer electronics', carbonFootprint: '85 kgCO2e', certifications: ['ENERGY STAR', 'EPEAT Silver'] };

  it.each(['12 kgCO2e', '0.35 kgCO2e', '1200 g CO2e', '0 kg', '007 t'])('accepts carbon footprint %j', (text) => {
    expect(isCarbonFootprint(text)).toBe(true);
  });

  it.each([
    '',
    '12',
    '12kgCO2e',
    '-1 kg',
    '+1 kg',
    '1e3 kg',
    '.5 kg',
    '5. kg',
    '1,5 kg',
    'kg 12',
    ' 12 kg',
    '12 kg ',
    '12  kg',
    '12 kg  CO2e',
    '12\tkg',
    'twelve kg',
  ])('rejects carbon footprint %j', (text) => {
    expect(isCarbonFootprint(text)).toBe(false);
  });

  it.each([
    ['GOTS, Fair Wear', ['GOTS', 'Fair Wear']],
    ['A', ['A']],
    ['A,B', ['A', 'B']],
    [' A , , B ,', ['A', 'B']],
    ['', []],
    [' , ', []],
  ])('splits certifications %j', (text, expected) => {
    expect(parseCertifications(text)).toEqual(expected);
  });

  it('uses the category defaults without override attributes', () => {
    expect(effectiveSustainability(category, { color: 'black' })).toEqual({ carbonFootprint: '85 kgCO2e', certifications: ['ENERGY STAR', 'EPEAT Silver'] });
  });

  it('replaces each default by its attribute independently', () => {
    expect(effectiveSustainability(category, { carbon_footprint: '32.5 kgCO2e' })).toEqual({
      carbonFootprint: '32.5 kgCO2e',
      certifications: ['ENERGY STAR', 'EPEAT Silver'],
    });
    expect(effectiveSustainability(category, { certifications: 'TCO Certified' })).toEqual({ carbonFootprint: '85 kgCO2e', certifications: ['TCO Certified'] });
    expect(effectiveSustainability(category, { certifications: '' })).toEqual({ carbonFootprint: '85 kgCO2e', certifications: [] });
  });

  it('returns a copy of the default certifications, not the category array', () => {
    const s = effectiveSustainability(category, {});
    s.certifications.push('X');
    expect(category.certifications).toEqual(['ENERGY STAR', 'EPEAT Silver']);
  });

  it('reads attributes stored in a null-prototype object', () => {
    const attrs = Object.assign(Object.create(null) as Record<string, string>, { certifications: 'A' });
    expect(effectiveSustainability(category, attrs).certifications).toEqual(['A']);
  });
});
