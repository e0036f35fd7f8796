// Internal models → v1 wire shapes: bare objects (the registry documents no envelope),
// snake_case fields, ISO times.
import type { z } from 'zod';
import { toIso } from '../../core/clock.js';
import type { Category } from '../../domain/models.js';
import type { ProductView } from '../../domain/products/products.service.js';
import type { categorySchema, productSchema } from './schemas.js';

export function productDto({ product, category, sustainability }: ProductView): z.infer<ReturnType<typeof productSchema>> {
  return {
    svc_code: product.svcCode,
    name: product.name,
    brand: product.brand,
    category: category.label,
    description: product.description,
    sustainability: { carbon_footprint: sustainability.carbonFootprint, certifications: [...sustainability.certifications] },
    created_at: toIso(product.createdAt),
    updated_at: toIso(product.updatedAt),
  };
}

export function categoryDto(c: Category): z.infer<ReturnType<typeof categorySchema>> {
  return { code: c.code, label: c.label, carbon_footprint: c.carbonFootprint, certifications: [...c.certifications] };
}
