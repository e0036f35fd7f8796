import { z } from 'zod';
import { route } from '../route.js';
import { categoryDto } from '../v1/mappers.js';
import { categorySchema } from '../v1/schemas.js';

export const categoryRoutes = [
  route({
    method: 'get',
    path: '/_emulator/categories',
    api: 'control',
    auth: 'none',
    tag: 'Control: products',
    summary: 'The product categories of the fixtures (valid v1 category_code values), in fixture order',
    responses: { 200: { description: 'Every category with its default sustainability data', schema: () => z.array(categorySchema()) } },
    handler: ({ deps }) => ({ status: 200, body: deps.services.products.categories().map(categoryDto) }),
  }),
];
