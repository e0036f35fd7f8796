// The response check that every integration test relies on must itself fail when it should.
import express from 'express';
import { describe, expect, it } from 'vitest';
import { validatingApi } from '../helpers/test-app.js';

function appServing(body: unknown, status = 200) {
  const app = express();
  app.get('/_emulator/openapi.json', (_req, res) => {
    res.json({
      openapi: '3.1.0',
      paths: {
        '/things/{id}': {
          get: {
            responses: {
              '200': {
                content: {
                  'application/json': {
                    schema: { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } }, additionalProperties: false },
                  },
                },
              },
            },
          },
        },
      },
    });
  });
  app.get('/things/:id', (_req, res) => {
    res.status(status).json(body);
  });
  return app;
}

describe('the OpenAPI response check', () => {
  it('passes a body that matches', async () => {
    const res = await validatingApi(appServing({ id: '1b25f38c-1aa8-453b-8324-0e793e2562c5' }))
      .get('/things/1')
      .expect(200);
    expect(res.body).toEqual({ id: '1b25f38c-1aa8-453b-8324-0e793e2562c5' });
  });

  it.each([
    ['a missing field', {}],
    ['a wrong format', { id: 'not-a-uuid' }],
    ['an undocumented field', { id: '1b25f38c-1aa8-453b-8324-0e793e2562c5', extra: 1 }],
  ])('rejects %s', async (_name, body) => {
    await expect(validatingApi(appServing(body)).get('/things/1')).rejects.toThrow(/does not match the OpenAPI document/);
  });

  it('rejects an undocumented status', async () => {
    await expect(validatingApi(appServing({ id: 'x' }, 418)).get('/things/1')).rejects.toThrow(/answered 418, not documented/);
  });
});
