// The TLS listener on real ports (it is about the network): the web SDK's hosts over HTTPS, the
// certificate the emulator makes (or is given), upgrades on both listeners, start errors, close.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { selfSignedCredentials } from '../../../src/realtime/tls.js';

/** The web SDK's hosts (docs/frontend-offline.md), written out. */
const SDK_HOSTS = ['api', 'socket-edge', 'flags', 'location', 'location-legacy', 'api-silos', 'da-collector'];

let emu: RunningEmulator | undefined;
let dir: string | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const portOf = (url: string) => Number(new URL(url).port);

/**
 * An HTTPS request to the loopback as a browser makes it to `<name>:<port>`: SNI and Host name
 * it, and the certificate must be valid for it and trusted through `ca` alone. (Connecting to
 * 127.0.0.1 directly: not every system resolves `*.localhost`, which browsers do themselves.)
 */
function httpsGet(port: number, name: string, pathname: string, ca: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port, servername: name, path: pathname, ca, headers: { host: `${name}:${port}`, ...headers }, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const UPGRADE = (host: string) =>
  `GET /ws?roomID=r&peerID=p HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;

/** The first line of the answer to a WebSocket upgrade, over TLS (with `ca`) or plain TCP. */
function upgradeStatusLine(port: number, host: string, ca?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = ca ? tlsConnect({ host: '127.0.0.1', port, servername: host.split(':')[0], ca }) : netConnect({ host: '127.0.0.1', port });
    let text = '';
    socket.on(ca ? 'secureConnect' : 'connect', () => socket.write(UPGRADE(host)));
    socket.setEncoding('utf8').on('data', (d: string) => (text += d));
    socket.on('end', () => resolve(text.split('\r\n')[0]!));
    socket.on('error', reject);
  });
}

async function participantToken(e: RunningEmulator): Promise<string> {
  const post = (url: string, body: unknown) =>
    fetch(url, { method: 'POST', headers: { authorization: e.authHeader, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
      (r) => r.json() as Promise<{ data: { id: string; token: string } }>,
    );
  const meeting = await post(`${e.url}/v2/meetings`, { title: 'TLS' });
  return (await post(`${e.url}/v2/meetings/${meeting.data.id}/participants`, { name: 'Ada', preset_name: 'group_call_host', custom_participant_id: 'ada' }))
    .data.token;
}

describe('the TLS listener of startEmulator', () => {
  it('is off unless asked: no URL, and no certificate to download', async () => {
    emu = await startEmulator();
    expect(emu.tlsUrl).toBeUndefined();
    const res = await fetch(`${emu.url}/_emulator/tls/certificate`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('--tls-port');
  });

  it('with tlsPort 0 listens on a free port, with a made certificate that names localhost, its addresses and every SDK host', async () => {
    emu = await startEmulator({ tlsPort: 0 });
    expect(emu.tlsUrl).toMatch(/^https:\/\/localhost:\d+$/);
    expect(portOf(emu.tlsUrl!)).not.toBe(portOf(emu.url));
    expect(emu.deps.config.tlsPort).toBe(portOf(emu.tlsUrl!));

    const res = await fetch(`${emu.url}/_emulator/tls/certificate`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-pem-file');
    const pem = await res.text();
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n?$/);
    const cert = new X509Certificate(pem);
    for (const name of ['localhost', ...SDK_HOSTS.map((h) => `${h}.localhost`)]) {
      expect(cert.subjectAltName).toContain(`DNS:${name}`);
      expect(cert.checkHost(name), name).toBe(name);
    }
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkIP('::1')).toBe('::1');
    // Named one by one: no wildcard right under localhost, which browsers may refuse.
    expect(cert.subjectAltName).not.toContain('*');
    expect(cert.ca).toBe(false);
    expect(cert.publicKey.asymmetricKeyType).toBe('ec');
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(Date.parse(cert.validTo) - Date.parse(cert.validFrom)).toBeGreaterThanOrEqual(365 * 24 * 3600 * 1000);
    // The same certificate for the whole process.
    expect(await (await fetch(`${emu.url}/_emulator/tls/certificate`)).text()).toBe(pem);
  });

  it('serves the SDK hosts and every route of the plain port, trusted through the served certificate', async () => {
    emu = await startEmulator({ tlsPort: 0 });
    const port = portOf(emu.tlsUrl!);
    const ca = await (await fetch(`${emu.url}/_emulator/tls/certificate`)).text();
    const token = await participantToken(emu);

    const ice = await httpsGet(port, 'api.localhost', '/iceservers', ca, { authorization: `Bearer ${token}` });
    expect(ice.status).toBe(200);
    expect(JSON.parse(ice.body)).toEqual({ success: true, iceServers: [] });
    const details = await httpsGet(port, 'api.localhost', '/v2/internals/participant-details', ca, { authorization: `Bearer ${token}` });
    expect(JSON.parse(details.body).data.participant.name).toBe('Ada');
    expect((await httpsGet(port, 'api.localhost', '/iceservers', ca)).status).toBe(401);
    expect((await httpsGet(port, 'location.localhost', '/', ca)).status).toBe(200);

    const health = await httpsGet(port, 'localhost', '/_emulator/health', ca);
    expect(health.status).toBe(200);
    const meetings = await httpsGet(port, 'localhost', '/v2/meetings', ca, { authorization: emu.authHeader });
    expect(JSON.parse(meetings.body).data[0].title).toBe('TLS');
  });

  it('hands the upgrades of both listeners to the signalling socket (one without a token is refused with 401)', async () => {
    emu = await startEmulator({ tlsPort: 0 });
    const ca = await (await fetch(`${emu.url}/_emulator/tls/certificate`)).text();
    const tlsPort = portOf(emu.tlsUrl!);
    expect(await upgradeStatusLine(tlsPort, `socket-edge.localhost:${tlsPort}`, ca)).toBe('HTTP/1.1 401 Unauthorized');
    expect(await upgradeStatusLine(portOf(emu.url), `socket-edge.localhost:${portOf(emu.url)}`)).toBe('HTTP/1.1 401 Unauthorized');
  });

  it('close() closes the TLS port too', async () => {
    emu = await startEmulator({ tlsPort: 0 });
    const ca = await (await fetch(`${emu.url}/_emulator/tls/certificate`)).text();
    const port = portOf(emu.tlsUrl!);
    expect((await httpsGet(port, 'localhost', '/_emulator/health', ca)).status).toBe(200);
    await emu.close();
    emu = undefined;
    await expect(httpsGet(port, 'localhost', '/_emulator/health', ca)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('a TLS port in use is a one-line start error that says what to do, and frees the plain port', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const err = (await startEmulator({ tlsPort: port }).catch((e: unknown) => e)) as Error;
      expect(err.message).toBe(
        `cannot listen on 127.0.0.1:${port} (EADDRINUSE): port ${port} is taken, by another emulator perhaps; stop it, or pick another port with --tls-port <n> or EMULATOR_TLS_PORT=<n> (0 turns it off)`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe('--tls-cert and --tls-key', () => {
  const files = async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'emulator-tls-'));
    const own = await selfSignedCredentials(Date.now());
    const other = await selfSignedCredentials(Date.now());
    const write = (name: string, text: string) => {
      writeFileSync(path.join(dir!, name), text);
      return path.join(dir!, name);
    };
    return {
      own,
      cert: write('cert.pem', own.cert),
      key: write('key.pem', own.key),
      otherKey: write('other-key.pem', other.key),
      junk: write('junk.pem', 'not a pem'),
    };
  };

  it('serves the given certificate and downloads it', async () => {
    const f = await files();
    emu = await startEmulator({ tlsPort: 0, tlsCert: f.cert, tlsKey: f.key });
    expect(await (await fetch(`${emu.url}/_emulator/tls/certificate`)).text()).toBe(f.own.cert);
    expect((await httpsGet(portOf(emu.tlsUrl!), 'flags.localhost', '/api/v1/identities/', f.own.cert)).status).toBe(405);
  });

  it.each([
    ['only a certificate', (f: Awaited<ReturnType<typeof files>>) => ({ tlsCert: f.cert }), '--tls-cert and --tls-key go together'],
    ['a file that is not there', (f: Awaited<ReturnType<typeof files>>) => ({ tlsCert: path.join(dir!, 'none.pem'), tlsKey: f.key }), 'cannot read --tls-cert'],
    ['a file that is no PEM', (f: Awaited<ReturnType<typeof files>>) => ({ tlsCert: f.junk, tlsKey: f.key }), 'are not a PEM certificate and its private key'],
    [
      "another certificate's key",
      (f: Awaited<ReturnType<typeof files>>) => ({ tlsCert: f.cert, tlsKey: f.otherKey }),
      'are not a PEM certificate and its private key',
    ],
  ])('%s is a one-line start error', async (_name, options, message) => {
    const f = await files();
    const err = (await startEmulator({ tlsPort: 0, ...options(f) }).catch((e: unknown) => e)) as Error;
    expect(err.message).toContain(message);
    expect(err.message).not.toContain('\n');
  });
});
