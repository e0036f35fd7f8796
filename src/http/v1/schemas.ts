// v1 wire schemas: the product creation payload (validation) and the Product and category
// shapes (OpenAPI). Limits are emulator decisions, documented in docs/api-v1.md.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { CATEGORY_CODE_MAX, FULL_CODE_PATTERN, PRODUCT_ID_MAX } from '../../domain/products/product-code.js';
import { LIMITS } from '../limits.js';

export const V1_LIMITS = {
  nameMax: 200,
  brandMax: 100,
  categoryCodeMax: CATEGORY_CODE_MAX,
  productIdMax: PRODUCT_ID_MAX,
  descriptionMax: 2000,
  attributesMax: 50,
  attributeKeyMax: 64,
  attributeValueMax: 500,
} as const;

/**
 * Attribute names that could reach Object.prototype in careless code. Rejected with 400
 * (emulator decision): zod would otherwise drop an own `__proto__` key silently, so the client
 * would never learn its attribute was ignored.
 */
export const RESERVED_ATTRIBUTE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

const attributeRecord = lazy(() =>
  z.record(z.string().min(1).max(V1_LIMITS.attributeKeyMax), z.string().max(V1_LIMITS.attributeValueMax)).meta({
    maxProperties: V1_LIMITS.attributesMax,
    propertyNames: { type: 'string', minLength: 1, maxLength: V1_LIMITS.attributeKeyMax, not: { enum: [...RESERVED_ATTRIBUTE_KEYS] } },
    description:
      `Attribute name → string value; at most ${V1_LIMITS.attributesMax} entries, names 1–${V1_LIMITS.attributeKeyMax} characters ` +
      `(not ${RESERVED_ATTRIBUTE_KEYS.join(', ')}), values up to ${V1_LIMITS.attributeValueMax}. ` +
      '`carbon_footprint` ("<number> <unit>") and `certifications` (comma-separated) override the category defaults.',
  }),
);

/**
 * Checks on the raw object, before zod's record (which skips an own `__proto__` key without a
 * word): reserved names, the entry count and the name lengths, each reported naming the field.
 */
const attributes = lazy(() =>
  z.preprocess((value, ctx) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value; // the record reports the type
    const keys = Object.keys(value);
    const reserved = keys.find((k) => (RESERVED_ATTRIBUTE_KEYS as readonly string[]).includes(k));
    if (reserved !== undefined) {
      ctx.addIssue({ code: 'custom', path: [reserved], message: 'is not allowed (reserved name)', input: value });
    } else if (keys.length > V1_LIMITS.attributesMax) {
      // Stryker disable next-line BooleanLiteral,StringLiteral: only issueMessage reads this issue, and it uses origin and maximum alone.
      ctx.addIssue({ code: 'too_big', origin: 'record', maximum: V1_LIMITS.attributesMax, inclusive: true, input: value, message: 'too many keys' });
    } else if (keys.some((k) => k.length === 0)) {
      ctx.addIssue({ code: 'custom', message: 'must not have an empty key', input: value });
    } else {
      const long = keys.find((k) => k.length > V1_LIMITS.attributeKeyMax);
      if (long !== undefined) {
        ctx.addIssue({ code: 'custom', message: `key "${long.slice(0, 16)}…" is longer than ${V1_LIMITS.attributeKeyMax} characters`, input: value });
      }
    }
    return value;
  }, attributeRecord()),
);

export const productCreateBody = lazy(() =>
  z.object({
    name: z.string().min(1).max(V1_LIMITS.nameMax),
    brand: z.string().min(1).max(V1_LIMITS.brandMax),
    category_code: z
      .string()
      .min(1)
      .max(V1_LIMITS.categoryCodeMax)
      .regex(/^\d+$/, 'must contain only digits 0-9')
      .meta({ description: 'Numeric category code, as a string; one of GET /_emulator/categories' }),
    product_id: z
      .string()
      .min(1)
      .max(V1_LIMITS.productIdMax)
      .regex(/^[A-Za-z0-9]+$/, 'must contain only letters A-Z, a-z and digits 0-9')
      .meta({ description: 'Client-side identifier; upper-cased, it becomes the middle segment of svc_code' }),
    description: z.string().max(V1_LIMITS.descriptionMax).optional(),
    attributes: attributes().optional(),
  }),
);

export const codeParams = lazy(() =>
  z.object({
    svc_code: z
      .string()
      .max(LIMITS.productCodeMax)
      .meta({
        description: 'The full code {category_code}-{PRODUCT_ID}-{CC} or the short form {category_code}-{PRODUCT_ID}, in any letter case',
        examples: ['101-COLDBREW330', '101-coldbrew330-73'],
      }),
  }),
);

export const productSchema = lazy(() =>
  z.object({
    svc_code: z.string().regex(new RegExp(FULL_CODE_PATTERN)),
    name: z.string(),
    brand: z.string(),
    category: z.string().meta({ description: 'The category label' }),
    description: z.string(),
    sustainability: z.object({
      carbon_footprint: z.string().meta({ description: '"<number> <unit>"' }),
      certifications: z.array(z.string()),
    }),
    created_at: z.string().meta({ format: 'date-time' }),
    updated_at: z.string().meta({ format: 'date-time' }),
  }),
);

export const categorySchema = lazy(() =>
  z.object({
    code: z.string().regex(/^\d+$/),
    label: z.string(),
    carbon_footprint: z.string(),
    certifications: z.array(z.string()),
  }),
);
