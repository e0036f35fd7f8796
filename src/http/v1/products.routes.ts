// v1 product registry routes, served identically under /api/v1 (the documented paths) and /v1
// (the documented example request): the documentation leaves the prefix open, so both answer
// (docs/api-v1.md).
import type { z } from 'zod';
import { orgOf } from '../auth.js';
import { route, type AnyRoute } from '../route.js';
import { productDto } from './mappers.js';
import { codeParams, productCreateBody, productSchema } from './schemas.js';

export const V1_PREFIXES = ['/api/v1', '/v1'] as const;
export type V1Prefix = (typeof V1_PREFIXES)[number];

function toInput(b: z.infer<ReturnType<typeof productCreateBody>>) {
  return {
    name: b.name,
    brand: b.brand,
    categoryCode: b.category_code,
    productId: b.product_id,
    description: b.description,
    attributes: b.attributes,
  };
}

export function productRoutesUnder(prefix: V1Prefix): AnyRoute[] {
  const alias = prefix === '/v1' ? " Same as under /api/v1 (the registry's documented example request omits the api segment)." : '';
  return [
    route({
      method: 'post',
      path: `${prefix}/products`,
      api: 'v1',
      auth: 'v1-bearer',
      tag: 'Products (v1)',
      summary: 'Create a product',
      description:
        'Answers 201 with the Product and a Location header holding its lookup URL (full code). The same category_code and ' +
        `product_id (in any letter case) again is a 409.${alias}`,
      body: productCreateBody,
      responses: {
        201: { description: 'The created product', schema: () => productSchema() },
        409: { description: 'A product with this category_code and product_id already exists' },
      },
      handler: ({ deps, auth, body }) => {
        const view = deps.services.products.create(orgOf(auth).id, toInput(body));
        const dto = productDto(view);
        // Absolute, under the prefix the client used, with the canonical full code.
        return { status: 201, body: dto, headers: { location: `${deps.config.publicUrl}${prefix}/products/${dto.svc_code}` } };
      },
    }),
    route({
      method: 'get',
      path: `${prefix}/products/{svc_code}`,
      api: 'v1',
      auth: 'v1-bearer',
      tag: 'Products (v1)',
      summary: 'Get a product by its full code or short form',
      description:
        '400 INVALID_PRODUCT_CODE for a code of neither form, 400 INVALID_CHECK_DIGITS for a full code whose check digits ' +
        `do not match, 404 NOT_FOUND for a well-formed code of no product.${alias}`,
      params: codeParams,
      responses: { 200: { description: 'The product', schema: () => productSchema() } },
      handler: ({ deps, auth, params }) => ({ status: 200, body: productDto(deps.services.products.get(orgOf(auth).id, params.svc_code)) }),
    }),
  ];
}

export const productRoutes: AnyRoute[] = V1_PREFIXES.flatMap((p) => productRoutesUnder(p));
