// Storage credentials are accepted and never stored, so they can never be shown. A distinctive
// secret goes through every route whose body takes one (the list is derived from the route
// table: a new accepting route fails the first test until it is added here), then every read
// path is searched for it: the entities' answers, the state export, the request journal, the
// logs and the webhook bodies a transport received.
import { Writable } from 'node:stream';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../src/app.js';
import { defaultConfig } from '../../src/config.js';
import { buildDeps } from '../../src/container.js';
import { WEBHOOK_EVENTS } from '../../src/domain/models.js';
import { createLogger } from '../../src/logger.js';
import { schemaOf } from '../../src/http/route.js';
import { allRoutes } from '../../src/http/routes.js';
import { RecordingTransport } from '../../src/webhooks/recording-transport.js';
import { BASIC, ORG_ID, START, fixtures, makeTestApp, validatingApi, type Api } from '../helpers/test-app.js';
import { refusingPort } from '../helpers/storage-servers.js';
import { createMeeting } from '../helpers/builders.js';

/** The write-only fields of a storage config, as production documents them (secret_key: the spelling of production's recording guides; its API schema says secret). */
const SECRET_FIELDS = ['access_key', 'secret_key', 'secret', 'password', 'private_key'];

const routeName = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/** Whether a JSON schema has one of the secret fields as a property, at any depth. */
function takesSecret(s: unknown): boolean {
  if (s === null || typeof s !== 'object') return false;
  const o = s as Record<string, unknown>;
  const props = (o.properties ?? {}) as Record<string, unknown>;
  if (Object.keys(props).some((k) => SECRET_FIELDS.includes(k))) return true;
  return Object.values(o).some((v) => (Array.isArray(v) ? v.some(takesSecret) : takesSecret(v)));
}

/** A storage config carrying every secret, each a value found nowhere else. */
function secretsFor(tag: string): Record<string, string> {
  return Object.fromEntries(SECRET_FIELDS.map((f) => [f, `zq-${tag}-${f}-never-shown`]));
}

const sent: string[] = [];
function storageConfig(tag: string) {
  const secrets = secretsFor(tag);
  sent.push(...Object.values(secrets));
  return { type: 'sftp', auth_method: 'KEY', host: 'files.example.test', username: 'uploader', port: 22, path: 'rec/', ...secrets };
}

interface World {
  api: Api;
  advance: (ms: number) => void;
  meetingId: string;
}

/** Every route that takes a storage secret, and how this test sends one through it. */
const SENDERS: Record<string, (w: World) => Promise<unknown>> = {
  'post /v2/meetings': async (w) =>
    w.api
      .post('/v2/meetings')
      .set('Authorization', BASIC)
      .send({ title: 'Created', recording_config: { storage_config: storageConfig('create') } })
      .expect(201),
  'patch /v2/meetings/{id}': async (w) =>
    w.api
      .patch(`/v2/meetings/${w.meetingId}`)
      .set('Authorization', BASIC)
      .send({ recording_config: { file_name_prefix: 'patched', storage_config: storageConfig('patch') } })
      .expect(200),
  'put /v2/meetings/{id}': async (w) =>
    w.api
      .put(`/v2/meetings/${w.meetingId}`)
      .set('Authorization', BASIC)
      .send({ title: 'Replaced', record_on_start: false, recording_config: { storage_config: storageConfig('put') } })
      .expect(200),
  'post /v2/recordings': async (w) =>
    w.api
      .post('/v2/recordings')
      .set('Authorization', BASIC)
      .send({ meeting_id: w.meetingId, allow_multiple_recordings: true, storage_config: { ...storageConfig('start'), type: 'aws', region: 'us-east-1' } })
      .expect(200),
  // A meeting of its own: the one above already has an active recording.
  'post /v2/recordings/track': async (w) =>
    w.api
      .post('/v2/recordings/track')
      .set('Authorization', BASIC)
      .send({
        meeting_id: (await w.api.post('/v2/meetings').set('Authorization', BASIC).send({ title: 'Tracked' }).expect(201)).body.data.id,
        layers: { default: { outputs: [{ type: 'STORAGE_CONFIG', storage_config: { ...storageConfig('track'), type: 'aws', region: 'us-east-1' } }] } },
      })
      .expect(200),
  // The organization's stored config (the control API's stand-in for production's developer portal).
  'put /_emulator/orgs/{id}/recording-config': async (w) =>
    w.api
      .put(`/_emulator/orgs/${ORG_ID}/recording-config`)
      .send({ storage_config: { ...storageConfig('org'), type: 'aws', bucket: 'org-bucket', region: 'us-east-1' } })
      .expect(200),
};

describe('storage secrets are never echoed', () => {
  it('the routes that take a storage secret are exactly the ones this test sends one through', () => {
    const accepting = allRoutes('http://emulator.test')
      .filter((r) => r.body !== undefined && takesSecret(z.toJSONSchema(schemaOf(r.body), { io: 'input', unrepresentable: 'any' })))
      // A RealtimeKit twin takes its v2 route's body schema (the same object, checked by the limits test).
      .map((r) => routeName(r).replace(/^(\w+) \/client\/v4\/accounts\/\{account_id\}\/realtime\/kit\/\{app_id\}\//, '$1 /v2/'));
    expect([...new Set(accepting)].sort()).toEqual(Object.keys(SENDERS).sort());
  });

  it('no answer, export, journal entry, log line or webhook body shows one', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    // Uploads of the aws recordings are attempted (to a loopback port that refuses them), so the
    // paths a failed upload writes to are searched too; the SFTP host stays unreachable.
    const storageEndpoints = { aws: `http://127.0.0.1:${await refusingPort()}`, sftpHosts: [] };
    const config = defaultConfig({
      clock: 'manual',
      startTime: START,
      seed: 'secrets',
      publicUrl: 'http://emulator.test',
      logLevel: 'trace',
      storageEndpoints,
    });
    const deps = buildDeps(config, { fixtures: fixtures(), logger: createLogger('trace', sink, 'json') });
    // Its recorder writes the recordings' files to a folder of their own, which the emulator's stop removes.
    onTestFinished(() => deps.services.recordings.files.close());
    const transport = new RecordingTransport();
    deps.webhooks.outbox.useTransport(transport);
    const app = createApp(deps);
    const api = validatingApi(app);
    const advance = (ms: number) => void deps.scheduler.advanceTo(deps.clock.now() + ms);

    await api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ name: 'all', url: 'http://127.0.0.1:9/hook', events: [...WEBHOOK_EVENTS] })
      .expect(201);
    const created = (await SENDERS['post /v2/meetings']!({ api, advance, meetingId: '' })) as { body: { data: { id: string } } };
    const w: World = { api, advance, meetingId: created.body.data.id };
    for (const [name, send] of Object.entries(SENDERS)) if (name !== 'post /v2/meetings') await send(w);
    // A recording that takes its storage config from the meeting, and one through its whole life.
    const fromMeeting = (
      await api.post('/v2/recordings').set('Authorization', BASIC).send({ meeting_id: w.meetingId, allow_multiple_recordings: true }).expect(200)
    ).body.data;
    expect(fromMeeting.storage_config).toMatchObject({ type: 'sftp', host: 'files.example.test', auth_method: 'KEY', port: 22 });
    // One with the start request's aws config, and one with the organization's (a meeting without a config of its own).
    const fromStart = (
      await api
        .post('/v2/recordings')
        .set('Authorization', BASIC)
        .send({ meeting_id: w.meetingId, allow_multiple_recordings: true, storage_config: { ...storageConfig('start-upload'), type: 'aws', bucket: 'b' } })
        .expect(200)
    ).body.data;
    const bare = (await api.post('/v2/meetings').set('Authorization', BASIC).send({ title: 'Org storage' }).expect(201)).body.data;
    const fromOrg = (await api.post('/v2/recordings').set('Authorization', BASIC).send({ meeting_id: bare.id }).expect(200)).body.data;
    expect(fromOrg.storage_config).toMatchObject({ type: 'aws', bucket: 'org-bucket' });
    advance(3_000);
    for (const r of [fromMeeting, fromStart, fromOrg]) await api.put(`/v2/recordings/${r.id}`).set('Authorization', BASIC).send({ action: 'stop' }).expect(200);
    advance(60_000);
    await deps.services.recordings.delivery.idle();
    await deps.webhooks.outbox.idle();
    // The two aws uploads were tried and refused; the SFTP one was never sent.
    for (const r of [fromStart, fromOrg]) expect(deps.storage.uploadOf(r.id)?.outcome).toBe('failed');
    expect(deps.storage.uploadOf(fromMeeting.id)?.outcome).toBe('not_sent');

    const readPaths = [
      `/v2/meetings/${w.meetingId}`,
      '/v2/meetings',
      '/v2/recordings',
      `/v2/recordings/${fromMeeting.id}`,
      `/v2/recordings/active-recording/${w.meetingId}`,
      '/_emulator/state',
      '/_emulator/requests?limit=1000',
      '/_emulator/webhooks/deliveries',
      `/_emulator/orgs/${ORG_ID}/overview`,
      `/_emulator/orgs/${ORG_ID}/recording-config`,
    ];
    const reads: Array<[string, string]> = [];
    for (const path of readPaths) reads.push([path, (await api.get(path).set('Authorization', BASIC).expect(200)).text]);
    expect(transport.requests.length).toBeGreaterThan(0);
    const places: Array<[string, string]> = [
      ...reads,
      ['logs', lines.join('')],
      ...transport.requests.map((r, i): [string, string] => [`webhook body ${i}`, r.body.toString()]),
    ];
    // One storage config per sender, and the recording whose upload was tried with its own.
    expect(sent).toHaveLength((Object.keys(SENDERS).length + 1) * SECRET_FIELDS.length);
    for (const [where, text] of places) {
      for (const secret of sent) expect(text.includes(secret), `${secret} in ${where}`).toBe(false);
    }
    // Not even the names: the answers and the export keep no secret field at all.
    for (const [where, text] of places.filter(([p]) => !p.includes('/_emulator/requests') && p !== 'logs')) {
      for (const field of SECRET_FIELDS) expect(text.includes(`"${field}"`), `${field} in ${where}`).toBe(false);
    }
  });

  // The state import takes any JSON (no body schema to derive from): a hand-written document
  // with a secret in a meeting's recording config keeps it out of the store too.
  it('a state document carrying a storage secret: the secret is not kept', async () => {
    const t = makeTestApp();
    const meeting = await createMeeting(t.api, { title: 'Imported' });
    const doc = (await t.api.get('/_emulator/state').expect(200)).body;
    const kept = doc.organizations.flatMap((o: { meetings?: Array<Record<string, unknown>> }) => o.meetings ?? []);
    kept[0].recordingConfig = { storage_config: { type: 'aws', bucket: 'b', ...secretsFor('import') } };
    await t.api.put('/_emulator/state').send(doc).expect(200);
    const texts = [
      (await t.api.get('/_emulator/state').expect(200)).text,
      (await t.api.get(`/v2/meetings/${meeting.id}`).set('Authorization', BASIC).expect(200)).text,
    ];
    for (const text of texts) for (const secret of Object.values(secretsFor('import'))) expect(text).not.toContain(secret);
    const got = await t.api.get(`/v2/meetings/${meeting.id}`).set('Authorization', BASIC).expect(200);
    expect(got.body.data.recording_config).toEqual({ storage_config: { type: 'aws', bucket: 'b' } });
  });
});
