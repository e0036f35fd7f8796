// The v1 product registry: create and look up products of an organization. The rules the API's
// documentation leaves open (code composition, limits, categories, sustainability) are emulator
// decisions, documented in docs/api-v1.md.
import { errors, isApiError } from '../../core/errors.js';
import { FixtureError } from '../../store/fixtures.js';
import type { OrgData } from '../../store/store.js';
import { orgData, type DomainContext } from '../context.js';
import type { Category, Product } from '../models.js';
import type { FixtureOrg, OrgMember } from '../organizations/org-member.js';
import { PRODUCT_ID_MAX, fullCode, normalizeProductId, parseProductCode, shortCode } from './product-code.js';
import { CARBON_FOOTPRINT_ATTRIBUTE, effectiveSustainability, isCarbonFootprint, type Sustainability } from './sustainability.js';

export interface ProductInput {
  name: string;
  brand: string;
  categoryCode: string;
  /** As the client sent it; upper-cased here. */
  productId: string;
  description?: string;
  attributes?: Readonly<Record<string, string>>;
}

/** A product with what its wire shape needs: the category and the effective sustainability. */
export interface ProductView {
  product: Product;
  category: Category;
  sustainability: Sustainability;
}

const PRODUCT_ID = new RegExp(`^[A-Za-z0-9]{1,${PRODUCT_ID_MAX}}$`);

/**
 * Attributes live in a null-prototype object: whatever the keys (`__proto__`, `constructor`,
 * `toString`), storing and reading them can never reach Object.prototype. The HTTP schema
 * also rejects the three reserved names outright.
 */
function safeAttributes(attributes: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  if (attributes) for (const [k, v] of Object.entries(attributes)) out[k] = v;
  return out;
}

export class ProductsService implements OrgMember {
  constructor(private readonly ctx: DomainContext) {}

  /** Every category of the fixtures, in fixture order. */
  categories(): Category[] {
    return [...this.ctx.store.categories.values()];
  }

  create(orgId: string, input: ProductInput): ProductView {
    const data = orgData(this.ctx, orgId);
    const product = this.build(orgId, input, this.ctx.clock.now());
    const key = shortCode(product.categoryCode, product.productId);
    // Same category_code + product_id (in any letter case) → same code → 409.
    if (data.products.has(key)) throw errors.productExists(product.svcCode);
    data.products.set(key, product);
    return this.view(product);
  }

  /** By short form or full code, any letter case. 400 for a malformed code or wrong check digits, 404 for no product. */
  get(orgId: string, code: string): ProductView {
    const data = orgData(this.ctx, orgId);
    const parsed = parseProductCode(code);
    if (!parsed.ok) {
      // Echo at most 80 characters of what the client sent.
      const shown = code.length > 80 ? `${code.slice(0, 80)}…` : code;
      throw parsed.reason === 'INVALID_CHECK_DIGITS' ? errors.invalidCheckDigits(shown, parsed.expected) : errors.invalidProductCode(shown);
    }
    const product = data.products.get(parsed.short);
    if (!product) throw errors.productNotFound(parsed.form === 'short' ? parsed.short : parsed.full);
    return this.view(product);
  }

  /** The organization's fixture products (OrgMember). */
  seedOrg(data: OrgData, fixtureOrg: FixtureOrg): void {
    const now = this.ctx.clock.now();
    fixtureOrg.products.forEach((p, i) => {
      const where = `organizations[${data.org.id}].products[${i}]`;
      try {
        const product = this.build(
          data.org.id,
          {
            name: p.name,
            brand: p.brand,
            categoryCode: p.category_code,
            productId: p.product_id,
            description: p.description,
            attributes: p.attributes,
          },
          now,
        );
        // A state export keeps the product's own times.
        if (p.created_at !== undefined) product.createdAt = Date.parse(p.created_at);
        if (p.updated_at !== undefined) product.updatedAt = Date.parse(p.updated_at);
        const key = shortCode(product.categoryCode, product.productId);
        if (data.products.has(key)) throw new FixtureError(`fixtures: ${where}: duplicate product ${product.svcCode}`);
        data.products.set(key, product);
      } catch (err) {
        if (isApiError(err)) throw new FixtureError(`fixtures: ${where}: ${err.message}`);
        throw err;
      }
    });
  }

  private build(orgId: string, input: ProductInput, now: number): Product {
    // The HTTP schema already enforces this; kept so fixtures and in-process callers cannot
    // make a code that does not parse back.
    if (!PRODUCT_ID.test(input.productId)) throw errors.validation(`"product_id" must be 1 to ${PRODUCT_ID_MAX} letters or digits`);
    if (!this.ctx.store.categories.has(input.categoryCode)) throw errors.unknownCategory(input.categoryCode);
    const attributes = safeAttributes(input.attributes);
    const footprint = attributes[CARBON_FOOTPRINT_ATTRIBUTE];
    if (footprint !== undefined && !isCarbonFootprint(footprint)) throw errors.invalidCarbonFootprint();
    const productId = normalizeProductId(input.productId);
    return {
      orgId,
      categoryCode: input.categoryCode,
      productId,
      svcCode: fullCode(input.categoryCode, productId),
      name: input.name,
      brand: input.brand,
      description: input.description ?? '',
      attributes,
      createdAt: now,
      updatedAt: now,
    };
  }

  private view(product: Product): ProductView {
    const category = this.ctx.store.categories.get(product.categoryCode);
    // Categories come from the fixtures and are never removed while products exist.
    if (!category) throw errors.internal();
    return { product, category, sustainability: effectiveSustainability(category, product.attributes) };
  }
}
