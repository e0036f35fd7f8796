// The v1 product code (emulator decision: the API's documentation does not show how a code is
// composed; docs/api-v1.md describes this one). Pure functions, no I/O.
//
//   full code   {category_code}-{PRODUCT_ID}-{CC}     e.g. 101-COLDBREW330-73
//   short form  {category_code}-{PRODUCT_ID}          e.g. 101-COLDBREW330
//
// PRODUCT_ID is the client's product_id upper-cased. CC are two check digits, ISO 7064
// MOD 97-10 as IBAN uses it: over category_code followed by PRODUCT_ID, letters A=10 … Z=35,
// CC = 98 - (N·100 mod 97), zero-padded to two digits (so always 02..98).

/** Category codes are 1 to 8 digits (the fixtures schema enforces the same bound). */
export const CATEGORY_CODE_MAX = 8;
/** product_id: 1 to 32 letters or digits, no hyphen (a hyphen separates the code's segments). */
export const PRODUCT_ID_MAX = 32;

// Matched against the code as given, ASCII only: upper-casing first would let "ſ" or "ı"
// (which upper-case to S and I) pass for letters.
const SHORT_FORM = new RegExp(`^(\\d{1,${CATEGORY_CODE_MAX}})-([A-Za-z0-9]{1,${PRODUCT_ID_MAX}})$`);
const FULL_FORM = new RegExp(`^(\\d{1,${CATEGORY_CODE_MAX}})-([A-Za-z0-9]{1,${PRODUCT_ID_MAX}})-(\\d{2})$`);

/** The wire pattern of a full code (OpenAPI). */
export const FULL_CODE_PATTERN = `^\\d{1,${CATEGORY_CODE_MAX}}-[A-Z0-9]{1,${PRODUCT_ID_MAX}}-\\d{2}$`;

/** A=10 … Z=35, 0-9 as themselves; -1 for anything else. */
function charValue(code: number): number {
  // Stryker disable next-line ConditionalExpression: a character below "0" gives a negative value, which the one caller refuses as it refuses -1.
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  if (code >= 65 && code <= 90) return code - 55; // A-Z
  if (code >= 97 && code <= 122) return code - 87; // a-z, same as upper case
  return -1;
}

/**
 * ISO 7064 MOD 97-10 check digits of `text` (digits and ASCII letters), as two characters.
 * Computed piecewise (remainder carried digit group by digit group), so any length works
 * without big integers.
 */
export function mod97CheckDigits(text: string): string {
  let rem = 0;
  for (let i = 0; i < text.length; i++) {
    const v = charValue(text.charCodeAt(i));
    if (v < 0) throw new RangeError(`mod97CheckDigits: "${text[i]}" is not a letter or digit`);
    rem = (rem * (v < 10 ? 10 : 100) + v) % 97;
  }
  return String(98 - ((rem * 100) % 97)).padStart(2, '0');
}

/** ASCII upper case only (product ids are ASCII letters and digits). */
export function normalizeProductId(productId: string): string {
  return productId.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32));
}

/** `{category_code}-{PRODUCT_ID}`: the store key and the short form of a lookup. */
export function shortCode(categoryCode: string, productId: string): string {
  return `${categoryCode}-${normalizeProductId(productId)}`;
}

export function checkDigitsFor(categoryCode: string, productId: string): string {
  return mod97CheckDigits(`${categoryCode}${normalizeProductId(productId)}`);
}

/** `{category_code}-{PRODUCT_ID}-{CC}`: the svc_code of a product. */
export function fullCode(categoryCode: string, productId: string): string {
  return `${shortCode(categoryCode, productId)}-${checkDigitsFor(categoryCode, productId)}`;
}

export type ParsedCode =
  | { ok: true; form: 'short' | 'full'; categoryCode: string; productId: string; short: string; full: string }
  | { ok: false; reason: 'INVALID_PRODUCT_CODE' }
  /** `expected`: the full code with the right check digits. */
  | { ok: false; reason: 'INVALID_CHECK_DIGITS'; expected: string };

/**
 * Reads a lookup code in either form, in any letter case. A full code whose check digits do
 * not match is INVALID_CHECK_DIGITS (with the expected full code); anything that is neither
 * form is INVALID_PRODUCT_CODE. Whether a product exists is not this function's business.
 */
export function parseProductCode(input: string): ParsedCode {
  const full = FULL_FORM.exec(input);
  if (full) {
    const [, categoryCode, rawId, cc] = full as unknown as [string, string, string, string];
    const productId = normalizeProductId(rawId);
    const expected = checkDigitsFor(categoryCode, productId);
    const short = `${categoryCode}-${productId}`;
    if (cc !== expected) return { ok: false, reason: 'INVALID_CHECK_DIGITS', expected: `${short}-${expected}` };
    return { ok: true, form: 'full', categoryCode, productId, short, full: `${short}-${cc}` };
  }
  const short = SHORT_FORM.exec(input);
  if (short) {
    const [, categoryCode, rawId] = short as unknown as [string, string, string];
    const productId = normalizeProductId(rawId);
    return { ok: true, form: 'short', categoryCode, productId, short: `${categoryCode}-${productId}`, full: fullCode(categoryCode, productId) };
  }
  return { ok: false, reason: 'INVALID_PRODUCT_CODE' };
}
