// The OpenAPI 3.0 → JSON Schema conversion behind the production shape check: a conversion that
// lets everything through would make that check worthless, so each rule is shown accepting what
// production allows and refusing what it does not.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { openApi30ToJsonSchema, parseProductionDocument, productionResponseFor, templateShape } from '../helpers/production-openapi.js';

function validator(schema: unknown, defs: Record<string, unknown> = {}) {
  const ajv = new Ajv2020({ strict: false, logger: false });
  ajv.addSchema({
    $id: 'https://components.test/',
    $defs: Object.fromEntries(Object.entries(defs).map(([k, v]) => [k, openApi30ToJsonSchema(v, 'https://components.test/')])),
  });
  const validate = ajv.compile(openApi30ToJsonSchema(schema, 'https://components.test/') as object);
  return (value: unknown) => validate(value);
}

describe('openApi30ToJsonSchema', () => {
  it('nullable: true widens a type by null; without it null is refused', () => {
    const nullable = validator({ type: 'integer', nullable: true });
    expect(nullable(3)).toBe(true);
    expect(nullable(null)).toBe(true);
    expect(nullable('3')).toBe(false);
    const strict = validator({ type: 'integer' });
    expect(strict(null)).toBe(false);
    expect(openApi30ToJsonSchema({ type: 'string', nullable: true })).toEqual({ type: ['string', 'null'] });
  });

  it('a nullable enum also takes null', () => {
    const v = validator({ type: 'string', enum: ['A', 'B'], nullable: true });
    expect(v('A')).toBe(true);
    expect(v(null)).toBe(true);
    expect(v('C')).toBe(false);
  });

  it('nullable: false changes nothing', () => {
    expect(openApi30ToJsonSchema({ type: 'string', nullable: false })).toEqual({ type: 'string' });
  });

  it('resolves $ref to the component schemas, nested in properties, items and additionalProperties', () => {
    const defs = { Thing: { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' }, n: { type: 'number', nullable: true } } } };
    const v = validator(
      {
        type: 'object',
        properties: {
          one: { $ref: '#/components/schemas/Thing' },
          many: { type: 'array', items: { $ref: '#/components/schemas/Thing' } },
          byKey: { type: 'object', additionalProperties: { $ref: '#/components/schemas/Thing' } },
        },
      },
      defs,
    );
    expect(v({ one: { id: 'x', n: null }, many: [{ id: 'y' }], byKey: { a: { id: 'z' } } })).toBe(true);
    expect(v({ one: {} })).toBe(false);
    expect(v({ many: [{ n: 1 }] })).toBe(false);
    expect(v({ byKey: { a: { id: 1 } } })).toBe(false);
    expect(openApi30ToJsonSchema({ $ref: '#/components/schemas/Thing' }, 'https://c/')).toEqual({ $ref: 'https://c/#/$defs/Thing' });
  });

  it('a nullable $ref or allOf becomes anyOf with null', () => {
    const defs = { Thing: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } };
    const viaAllOf = validator({ allOf: [{ $ref: '#/components/schemas/Thing' }], nullable: true }, defs);
    expect(viaAllOf(null)).toBe(true);
    expect(viaAllOf({ id: 'a' })).toBe(true);
    expect(viaAllOf({})).toBe(false);
    const viaRef = validator({ $ref: '#/components/schemas/Thing', nullable: true }, defs);
    expect(viaRef(null)).toBe(true);
    expect(viaRef({})).toBe(false);
  });

  it('allOf requires every part; oneOf exactly one', () => {
    const all = validator({
      allOf: [
        { type: 'object', required: ['a'] },
        { type: 'object', required: ['b'] },
      ],
    });
    expect(all({ a: 1, b: 2 })).toBe(true);
    expect(all({ a: 1 })).toBe(false);
    const one = validator({ oneOf: [{ type: 'string' }, { type: 'integer', nullable: true }] });
    expect(one('x')).toBe(true);
    expect(one(null)).toBe(true);
    expect(one(1.5)).toBe(false);
  });

  it('drops annotations (example, x-*, discriminator) and turns a boolean exclusiveMinimum into a number', () => {
    expect(openApi30ToJsonSchema({ type: 'number', minimum: 0, exclusiveMinimum: true, example: 5, 'x-stoplight': { id: 'a' } })).toEqual({
      type: 'number',
      exclusiveMinimum: 0,
    });
    expect(openApi30ToJsonSchema({ type: 'number', maximum: 9, exclusiveMaximum: false })).toEqual({ type: 'number', maximum: 9 });
    expect(openApi30ToJsonSchema({ oneOf: [{ type: 'string' }], discriminator: { propertyName: 'kind' } })).toEqual({ oneOf: [{ type: 'string' }] });
  });

  it('keeps a property named like a keyword (a property called "example" is data, not an annotation)', () => {
    expect(openApi30ToJsonSchema({ type: 'object', properties: { example: { type: 'string', nullable: true } } })).toEqual({
      type: 'object',
      properties: { example: { type: ['string', 'null'] } },
    });
  });
});

describe('parseProductionDocument', () => {
  const doc = parseProductionDocument(
    [
      'openapi: 3.0.0',
      'paths:',
      "  '/things/{thing_id}':",
      '    get:',
      '      responses:',
      "        '200':",
      "          $ref: '#/components/responses/ThingOk'",
      "        '4XX':",
      '          description: error',
      '    x-extra: {}',
      'components:',
      '  responses:',
      '    ThingOk:',
      '      description: ok',
      '      content:',
      '        application/json:',
      '          schema:',
      "            $ref: '#/components/schemas/Thing'",
      '  schemas:',
      '    Thing:',
      '      type: object',
      '      properties:',
      '        name: { type: string, nullable: true }',
    ].join('\n'),
    'https://c/',
  );

  it('lists operations (not extensions), found by method and template shape whatever the parameter names', () => {
    expect(doc.operations.map((o) => `${o.method} ${o.path}`)).toEqual(['get /things/{thing_id}']);
    expect(doc.find('GET', '/things/{id}')?.path).toBe('/things/{thing_id}');
    expect(doc.find('post', '/things/{id}')).toBeUndefined();
    expect(templateShape('/a/{x}/b/{y-z}')).toBe('/a/{}/b/{}');
  });

  it('inlines shared responses and converts the components', () => {
    const op = doc.find('get', '/things/{id}')!;
    expect(productionResponseFor(op, 200)?.content?.['application/json']?.schema).toEqual({ $ref: 'https://c/#/$defs/Thing' });
    expect(doc.components.$defs.Thing).toEqual({ type: 'object', properties: { name: { type: ['string', 'null'] } } });
  });

  it('a status falls back to its class, then to default', () => {
    const op = doc.find('get', '/things/{id}')!;
    expect(productionResponseFor(op, 404)?.description).toBe('error');
    expect(productionResponseFor(op, 500)).toBeUndefined();
  });
});
