// The in-process API (the package's main export) on a real port.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, startEmulator, type RunningEmulator } from '../../src/index.js';

// Response bodies as the tests read them.
type Body = { data: { id: string; status?: string }; paging: { total_count: number }; now: string };
const json = async (res: Response | Promise<Response>) => (await (await res).json()) as Body;

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

describe('startEmulator', () => {
  it('listens on a free port with a manual clock and hands out credentials', async () => {
    emu = await startEmulator();
    expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emu.url.endsWith(':0')).toBe(false);
    expect(emu.orgId).toBe('00000000-0000-4000-8000-000000000001');
    expect(emu.apiKey).toBe('emulator-api-key');
    expect(emu.authHeader).toBe(`Basic ${Buffer.from(`${emu.orgId}:${emu.apiKey}`).toString('base64')}`);
  });

  it('starts its manual clock at the real time to the whole second, or at 2026-01-01T00:00:00Z when seeded', async () => {
    const before = Date.now();
    emu = await startEmulator();
    const after = Date.now();
    const clock = await json(fetch(`${emu.url}/_emulator/clock`));
    expect((clock as unknown as { mode: string }).mode).toBe('manual');
    const now = Date.parse(clock.now);
    expect(now % 1000).toBe(0);
    expect(now).toBeGreaterThan(before - 1000);
    expect(now).toBeLessThanOrEqual(after);
    await emu.close();

    emu = await startEmulator({ seed: 'fixed-start' });
    expect(await json(fetch(`${emu.url}/_emulator/clock`))).toEqual({ now: '2026-01-01T00:00:00.000Z', mode: 'manual' });
  });

  it('a participant token minted with the default settings verifies with jose and its default options (the wall clock)', async () => {
    emu = await startEmulator();
    const headers = { authorization: emu.authHeader, 'content-type': 'application/json' };
    const meeting = (await json(fetch(`${emu.url}/v2/meetings`, { method: 'POST', headers, body: '{}' }))).data;
    const added = await fetch(`${emu.url}/v2/meetings/${meeting.id}/participants`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Ada', preset_name: 'group_call_host', custom_participant_id: 'ada' }),
    });
    expect(added.status).toBe(201);
    const { token } = ((await added.json()) as { data: { token: string } }).data;
    const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(`${emu.url}/.well-known/jwks.json`)));
    expect(payload.exp).toBeGreaterThan(Date.now() / 1000);
  });

  it('advance and setNow drive the lifecycles; reset returns to the fixtures', async () => {
    emu = await startEmulator({ seed: 'in-process', startTime: '2026-03-01T10:00:00Z' });
    const headers = { authorization: emu.authHeader, 'content-type': 'application/json' };
    const meeting = (await json(fetch(`${emu.url}/v2/meetings`, { method: 'POST', headers, body: '{}' }))).data;
    const rec = (await json(fetch(`${emu.url}/v2/recordings`, { method: 'POST', headers, body: JSON.stringify({ meeting_id: meeting.id }) }))).data;
    await emu.advance(3_000);
    const recording = (await json(fetch(`${emu.url}/v2/recordings/${rec.id}`, { headers }))).data;
    expect(recording).toMatchObject({ status: 'RECORDING', started_time: '2026-03-01T10:00:03.000Z' });
    await emu.setNow('2026-03-01T11:00:00Z');
    expect((await json(fetch(`${emu.url}/_emulator/clock`))).now).toBe('2026-03-01T11:00:00.000Z');
    await expect(emu.setNow('2026-03-01T09:00:00Z')).rejects.toThrow(/cannot move the clock back/);
    await emu.reset();
    const after = await json(fetch(`${emu.url}/v2/meetings`, { headers }));
    expect(after.paging.total_count).toBe(0);
  });

  it('uses port 0 to pick a free port, so two run side by side', async () => {
    emu = await startEmulator();
    const other = await startEmulator();
    try {
      expect(other.url).not.toBe(emu.url);
      const created = await fetch(`${other.url}/v2/meetings`, { method: 'POST', headers: { authorization: other.authHeader } });
      expect(created.status).toBe(201);
      const seen = await json(fetch(`${emu.url}/v2/meetings`, { headers: { authorization: emu.authHeader } }));
      expect(seen.paging.total_count).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('refuses storage endpoints with credentials in their URL, without quoting them; health shows the endpoints it was given as given', async () => {
    await expect(startEmulator({ storageEndpoints: { azure: 'http://127.0.0.1:10000/devstoreaccount1?sv=2024-11-04&sig=ZQsasSignature' } })).rejects.toThrow(
      /^storageEndpoints: azure= must not carry a query string or fragment \(a SAS token is a credential\): it would be shown on the start line, in health and in the request journal; the storage_config signs every upload with its own credentials$/,
    );
    const refused = await startEmulator({ storageEndpoints: { aws: 'http://AKIAZQ:ZQsecret@127.0.0.1:9000' } }).then(
      () => 'started',
      (err: Error) => err.message,
    );
    expect(refused).toMatch(/^storageEndpoints: aws= must not carry credentials \(user:password@ in the URL\)/);
    expect(refused).not.toContain('ZQsecret');
    emu = await startEmulator({ storageEndpoints: { aws: 'http://127.0.0.1:9000', azure: 'http://127.0.0.1:10000/devstoreaccount1', sftpHosts: [] } });
    const health = (await (await fetch(`${emu.url}/_emulator/health`)).json()) as { storage: unknown };
    expect(health.storage).toEqual({
      endpoints: { aws: 'http://127.0.0.1:9000', digitalocean: null, azure: 'http://127.0.0.1:10000/devstoreaccount1' },
      sftp_hosts: [],
      uploads_in_flight: 0,
    });
  });

  it('deliveries() waits for in-flight webhook attempts and lists them', async () => {
    const received: string[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        received.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      emu = await startEmulator();
      const headers = { authorization: emu.authHeader, 'content-type': 'application/json' };
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      await fetch(`${emu.url}/v2/webhooks`, { method: 'POST', headers, body: JSON.stringify({ name: 'h', url, events: ['recording.statusUpdate'] }) });
      const meeting = (await json(fetch(`${emu.url}/v2/meetings`, { method: 'POST', headers, body: '{}' }))).data;
      await fetch(`${emu.url}/v2/recordings`, { method: 'POST', headers, body: JSON.stringify({ meeting_id: meeting.id }) });
      await emu.advance(3_000);
      const deliveries = await emu.deliveries({ event: 'recording.statusUpdate' });
      expect(deliveries.map((d) => [d.status, (d.payload as { recording: { status: string } }).recording.status])).toEqual([
        ['delivered', 'RECORDING'],
        ['delivered', 'INVOKED'],
      ]);
      expect(received).toHaveLength(2);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('exports createApp for supertest', () => {
    expect(typeof createApp).toBe('function');
  });
});
