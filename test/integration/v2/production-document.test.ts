// The emulator serves the whole production v2 API: every operation of the production service's
// published OpenAPI document (MEETINGS_PRODUCTION_OPENAPI names the file) is in the document the
// emulator serves, under /v2, with the same method and path template (parameter names may differ).
// Without the variable there is nothing to compare with, and the test says so instead of passing
// quietly.
import { describe, expect, it } from 'vitest';
import { EMULATOR_PREFIX, PRODUCTION_OPENAPI_ENV, productionDocument, templateShape } from '../../helpers/production-openapi.js';
import { makeTestApp } from '../../helpers/test-app.js';

const production = productionDocument();
const skipReason = `${PRODUCTION_OPENAPI_ENV} is not set: set it to the production OpenAPI 3.0 document (a YAML file) to compare the served document with it`;

describe.skipIf(!production)(production ? 'the served document has every production operation' : skipReason, () => {
  it('lists every production operation (method and path template) under /v2', async () => {
    const { api } = makeTestApp();
    const served = (await api.get('/_emulator/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const servedOps = new Set(Object.entries(served.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m} ${templateShape(path)}`)));
    const missing = production!.operations
      .map((op) => `${op.method} ${EMULATOR_PREFIX}${op.path}`)
      .filter((op) => {
        const [method, path] = op.split(' ') as [string, string];
        return !servedOps.has(`${method} ${templateShape(path)}`);
      });
    // The production document of this API has 63 operations; a file with far fewer is not it.
    expect(production!.operations.length).toBeGreaterThanOrEqual(60);
    expect(missing).toEqual([]);
  });
});
