// A product's sustainability data (emulator decision, docs/api-v1.md): the category's defaults
// from the fixtures, overridden per product by two attributes. Pure functions, no I/O.
import type { Category } from '../models.js';

export interface Sustainability {
  carbonFootprint: string;
  certifications: string[];
}

/** The attribute names that override the category defaults. */
export const CARBON_FOOTPRINT_ATTRIBUTE = 'carbon_footprint';
export const CERTIFICATIONS_ATTRIBUTE = 'certifications';

/**
 * `<number> <unit>`: a non-negative decimal (`12`, `0.35`; no sign, exponent or bare dot),
 * one space, then a unit of one or more words separated by single spaces (`kgCO2e`,
 * `g CO2e`). No leading or trailing whitespace.
 */
const CARBON_FOOTPRINT = /^\d+(\.\d+)? \S+( \S+)*$/;

export function isCarbonFootprint(text: string): boolean {
  return CARBON_FOOTPRINT.test(text);
}

/** "GOTS, Fair Wear" → ["GOTS", "Fair Wear"]: comma-separated, trimmed, empty items dropped. */
export function parseCertifications(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * The category's defaults, each replaced (not merged) by its attribute when present. An empty
 * `certifications` attribute therefore means "none", overriding the defaults.
 * Callers validate `carbon_footprint` with isCarbonFootprint first.
 */
export function effectiveSustainability(category: Category, attributes: Readonly<Record<string, string>>): Sustainability {
  const footprint = Object.prototype.hasOwnProperty.call(attributes, CARBON_FOOTPRINT_ATTRIBUTE) ? attributes[CARBON_FOOTPRINT_ATTRIBUTE] : undefined;
  const certs = Object.prototype.hasOwnProperty.call(attributes, CERTIFICATIONS_ATTRIBUTE) ? attributes[CERTIFICATIONS_ATTRIBUTE] : undefined;
  return {
    carbonFootprint: footprint ?? category.carbonFootprint,
    certifications: certs === undefined ? [...category.certifications] : parseCertifications(certs),
  };
}
