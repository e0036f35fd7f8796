// One structured line per request, at the configured level, never a secret.
import { Writable } from 'node:stream';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { defaultConfig } from '../../src/config.js';
import { buildDeps } from '../../src/container.js';
import { createLogger } from '../../src/logger.js';
import { BASIC, START, fixtures } from '../helpers/test-app.js';

function appLoggingTo(level: 'info' | 'warn') {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const config = defaultConfig({ clock: 'manual', startTime: START, seed: 'log', logLevel: level });
  const deps = buildDeps(config, { fixtures: fixtures(), logger: createLogger(level, sink) });
  return { app: createApp(deps), lines };
}

describe('request logs', () => {
  it('writes one JSON line per request with id, method, path, status, duration and organization', async () => {
    const { app, lines } = appLoggingTo('info');
    const res = await request(app).post('/v2/meetings').set('Authorization', BASIC).send({ title: 'logged' }).expect(201);
    await request(app).get('/v2/meetings/not-an-id').set('Authorization', BASIC).expect(400);
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({
      level: 30,
      reqId: res.headers['x-request-id'],
      method: 'POST',
      path: '/v2/meetings',
      status: 201,
      orgId: '00000000-0000-4000-8000-000000000001',
    });
    expect(typeof requests[0]!.ms).toBe('number');
    expect(requests[1]).toMatchObject({ method: 'GET', status: 400 });
  });

  it('never logs an Authorization value, a body or a storage secret', async () => {
    const { app, lines } = appLoggingTo('info');
    const meeting = (await request(app).post('/v2/meetings').set('Authorization', BASIC).send({}).expect(201)).body.data;
    await request(app)
      .post('/v2/recordings')
      .set('Authorization', BASIC)
      .send({ meeting_id: meeting.id, storage_config: { type: 'aws', access_key: 'AKIA-LOG-SECRET', secret_key: 'LOG-SECRET-2' } })
      .expect(200);
    await request(app).get('/v2/meetings').set('Authorization', 'Basic d3Jvbmc6c2VjcmV0LWtleQ==').expect(401);
    const text = JSON.stringify(lines);
    for (const secret of [BASIC.slice(6), 'AKIA-LOG-SECRET', 'LOG-SECRET-2', 'd3Jvbmc6c2VjcmV0LWtleQ==']) expect(text).not.toContain(secret);
  });

  it('follows the level: warn drops request lines', async () => {
    const { app, lines } = appLoggingTo('warn');
    await request(app).get('/v2/meetings').set('Authorization', BASIC).expect(200);
    expect(lines).toEqual([]);
  });
});
