// The Testcontainers module against a real Docker engine API: the image built from this
// repository's Dockerfile, driven over HTTP as an integration-test author would drive it.
// Without an engine the suite cannot say anything, so under CI that is a failure, not a skip.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenericContainer, Wait, getContainerRuntimeClient } from 'testcontainers';
import { DEFAULT_BUILT_IMAGE, MeetingsEmulatorContainer, type StartedMeetingsEmulatorContainer } from 'meetings-emulator/testcontainers';
import { ephemeralRange, hostPortPicker } from '../../src/core/host-ports.js';
import { engineMissing, inCi } from '../helpers/docker-engine.js';
import { decodingVideos, joinPage } from '../helpers/page-media.js';
import { CHROMIUM, SDKS, Frontend, addPerson, readUntil, restOf } from '../helpers/web-sdk.js';

const ORG_ID = '00000000-0000-4000-8000-000000000001';
const API_KEY = 'emulator-api-key';

// A cold build installs ffmpeg and the production and build dependencies inside the image (about
// 40 s on two idle cores, minutes on busy ones); a warm one takes seconds. The timeout only guards
// against a hang.
const BUILD_TIMEOUT_MS = 600_000;
/** Generous: a shared CI machine can be slow; nothing here measures time. */
const MEDIA_WAIT_MS = 30_000;
/** The encoder of the ingest test (CI installs it; elsewhere, without it, that test is skipped). */
const hasFfmpeg = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0;

async function call(emu: StartedMeetingsEmulatorContainer, method: string, path: string, body?: unknown) {
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers: { authorization: emu.authHeader, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data: { id: string; status: string } } };
}

/**
 * A new meeting in which Ada's page (camera and microphone off) joins and a bot publishes the
 * sample clip: the meeting's id and the page, once it decodes the bot's 320×180 video.
 */
async function pageDecodingBot(
  e: { url: string; authHeader: string },
  sdk: (typeof SDKS)[number],
  frontend: Frontend,
  title: string,
): Promise<{ meetingId: string; page: Awaited<ReturnType<typeof joinPage>> }> {
  const meeting = await restOf(e)<{ id: string }>('POST', '/v2/meetings', { title });
  const [ada, bot] = [await addPerson(e, meeting.id, 'Ada'), await addPerson(e, meeting.id, 'Bot')];
  const page = await joinPage(sdk, frontend, ada, { audio: false, video: false });
  const joined = await fetch(`${e.url}/_emulator/meetings/${meeting.id}/participants/${bot.id}/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ media: { video: true } }),
  });
  expect(joined.status).toBe(200);
  expect((await decodingVideos(page, 1, MEDIA_WAIT_MS)).map((v) => [v.width, v.height])).toEqual([[320, 180]]);
  return { meetingId: meeting.id, page };
}

if (engineMissing && inCi) {
  it('needs a Docker engine API under CI', () => {
    throw new Error(engineMissing);
  });
} else if (engineMissing) {
  // Shown in the run's output, not only in a verbose report, so a skipped container test is noticed.
  console.warn(`test/container/testcontainers.test.ts skipped: ${engineMissing}`);
  it.skip(`MeetingsEmulatorContainer (skipped: ${engineMissing})`, () => {});
} else {
  describe('MeetingsEmulatorContainer built from the Dockerfile', () => {
    let emu: StartedMeetingsEmulatorContainer | undefined;

    beforeAll(async () => {
      emu = await new MeetingsEmulatorContainer().withSeed('testcontainers').start();
    }, BUILD_TIMEOUT_MS);

    afterAll(async () => {
      await emu?.stop();
    }, 60_000);

    it('hands out the default organization of the fixtures', () => {
      expect(emu!.orgId).toBe(ORG_ID);
      expect(emu!.apiKey).toBe(API_KEY);
      expect(emu!.authHeader).toBe(`Basic ${Buffer.from(`${ORG_ID}:${API_KEY}`).toString('base64')}`);
      expect(emu!.url).toMatch(/^http:\/\/[^/]+:\d+$/);
    });

    // The engine may forward a published port to the container for a moment after the container has
    // let it go (podman does): a port the machine hands out by itself could meanwhile go to another
    // server of this machine, whose connections would then go to the container.
    it('publishes every port on one outside the range this machine hands out by itself', async () => {
      const range = ephemeralRange();
      const client = await getContainerRuntimeClient();
      const bindings = (await client.container.inspect(client.container.getById(emu!.getId()))).NetworkSettings.Ports;
      const published = Object.entries(bindings).flatMap(([port, hosts]) => (hosts ?? []).map((h) => `${port} on ${h.HostPort}`));
      // The HTTP and TLS ports, the media port (UDP and TCP) and the two ingest ports, and the image's
      // own media and ingest ports, which podman lists among the bindings.
      expect(published).toHaveLength(10);
      for (const binding of published) {
        const port = Number(binding.split(' on ')[1]);
        expect(port < range.from || port > range.to, `${binding}, against ${range.from}-${range.to}`).toBe(true);
      }
      expect(published).toContain(`${emu!.mediaPort}/udp on ${emu!.mediaPort}`);
      expect(published).toContain(`${emu!.mediaPort}/tcp on ${emu!.mediaPort}`);
    });

    it('serves the documentation pages the landing page links to', async () => {
      const res = await fetch(`${emu!.url}/_emulator/docs/testcontainers.md`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('# The emulator in a container, with Testcontainers');
    });

    it("serves the web SDK's TLS listener on its own mapped port, with the certificate it serves", async () => {
      const e = emu!;
      const ca = await (await fetch(`${e.url}/_emulator/tls/certificate`)).text();
      const tls = new URL(e.tlsUrl);
      expect(tls.protocol).toBe('https:');
      const status = await new Promise<number | undefined>((resolve, reject) => {
        httpsGet({ host: '127.0.0.1', port: Number(tls.port), path: '/_emulator/health', servername: tls.hostname, ca }, (res) => {
          res.resume();
          resolve(res.statusCode);
        }).on('error', reject);
      });
      expect(status).toBe(200);
    });

    // Media from the container to a page on this machine through the published ports only: the
    // module published the media port under its own number and told the emulator to announce the
    // engine's host, with no line of the test's. (Chromium is installed by CI; elsewhere, without it, this is skipped.)
    it.skipIf(!existsSync(CHROMIUM) && !inCi)(
      "media through the published ports: a page in Chromium on this machine decodes a bot's video, and its own camera reaches a second page",
      async () => {
        const e = emu!;
        const health = (await (await fetch(`${e.url}/_emulator/health`)).json()) as { media: { listening: Record<string, unknown> } };
        expect(health.media.listening).toEqual({
          address: '0.0.0.0',
          candidates: ['127.0.0.1'],
          udp_port: e.mediaPort,
          udp_port_range: null,
          tcp_port: e.mediaPort,
          open: false,
        });
        const sdk = SDKS[1];
        const frontend = await Frontend.start(sdk, e);
        try {
          const { meetingId, page: a } = await pageDecodingBot(e, sdk, frontend, 'Media from a container');
          const bob = await addPerson(e, meetingId, 'Bob');
          // Bob's camera (Chromium's fake one, 16:9) reaches Ada too.
          await joinPage(sdk, frontend, bob, { audio: false, video: true });
          const both = await decodingVideos(a, 2, MEDIA_WAIT_MS);
          expect(both).toHaveLength(2);
          expect(both.filter((v) => v.width !== 320).every((v) => v.width * 9 === v.height * 16)).toBe(true);
          expect(frontend.pageErrors).toEqual([]);
        } finally {
          await frontend.close();
        }
      },
      4 * MEDIA_WAIT_MS,
    );

    // The image alone, as `docker run -p 4700:4700 -p 4443:4443 -p 4710:4710/udp -p 4710:4710/tcp`
    // starts it (the HTTP and TLS ports here on free ports of this machine, taken as the module takes
    // them): no setting of the module's, the image's own media port and announced address, and a
    // page on this machine gets media.
    it.skipIf(!existsSync(CHROMIUM) && !inCi)(
      "the image's own media defaults with plain port mapping: media on 4710, 127.0.0.1 announced, and a page on this machine decodes a bot's video",
      async () => {
        const hostPort = hostPortPicker();
        const started = await new GenericContainer(DEFAULT_BUILT_IMAGE)
          // podman lists every port the image exposes among the bindings Testcontainers waits for: the ingest ports go on free ones.
          .withExposedPorts(
            ...[
              { container: 4700, host: await hostPort() },
              { container: 4443, host: await hostPort() },
              { container: 1935, host: await hostPort() },
              { container: 1936, host: await hostPort() },
            ],
            { container: 4710, host: 4710, protocol: 'udp' },
            { container: 4710, host: 4710 },
          )
          .withWaitStrategy(Wait.forHttp('/_emulator/health', 4700).forStatusCode(200))
          .withStartupTimeout(120_000)
          .start();
        const e = {
          url: `http://${started.getHost()}:${started.getMappedPort(4700)}`,
          // The SDK's hosts are subdomains of its base, so the base is a name: localhost, as the docs' docker run gives it.
          tlsUrl: `https://localhost:${started.getMappedPort(4443)}`,
          authHeader: `Basic ${Buffer.from(`${ORG_ID}:${API_KEY}`).toString('base64')}`,
        };
        const sdk = SDKS[0];
        let frontend: Frontend | undefined;
        try {
          const health = (await (await fetch(`${e.url}/_emulator/health`)).json()) as { media: { listening: Record<string, unknown> } };
          expect(health.media.listening).toEqual({
            address: '0.0.0.0',
            candidates: ['127.0.0.1'],
            udp_port: 4710,
            udp_port_range: null,
            tcp_port: 4710,
            open: false,
          });
          frontend = await Frontend.start(sdk, e);
          await pageDecodingBot(e, sdk, frontend, 'The image as docker run starts it');
          expect(frontend.pageErrors).toEqual([]);
        } finally {
          await frontend?.close();
          await started.stop();
        }
      },
      4 * MEDIA_WAIT_MS + 120_000,
    );

    // An encoder on this machine pushes through the published ingest port: the livestream's
    // ingest_server names that port, and the push makes the livestream LIVE.
    it.skipIf(!hasFfmpeg && !inCi)(
      "an encoder pushes to a livestream's ingest through the published RTMP port, and it goes LIVE",
      async () => {
        const e = emu!;
        expect(e.rtmpsPort).toEqual(expect.any(Number));
        const made = await restOf(e)<{ id: string; ingest_server: string; stream_key: string }>('POST', '/v2/livestreams', { name: 'from-an-encoder' });
        // Its host is the emulator's public URL's (localhost in the image), its port the published one.
        const ingest = new URL(made.ingest_server);
        expect([ingest.protocol, ingest.port, ingest.pathname]).toEqual(['rtmps:', String(e.rtmpsPort), '/app/']);
        const encoder = spawn(
          'ffmpeg',
          [
            ...['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'color=c=0x3366CC:s=320x180:r=25'],
            ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '25', '-pix_fmt', 'yuv420p', '-f', 'flv'],
            `rtmp://${ingest.hostname}:${e.rtmpPort}/app/${made.stream_key}`,
          ],
          { stdio: 'ignore' },
        );
        try {
          const status = await readUntil(
            async () => (await restOf(e)<{ livestream: { status: string } }>('GET', `/v2/livestreams/${made.id}`)).livestream.status,
            (s) => s === 'LIVE',
            MEDIA_WAIT_MS,
            200,
          );
          expect(status).toBe('LIVE');
        } finally {
          encoder.kill('SIGKILL');
        }
      },
      2 * MEDIA_WAIT_MS,
    );

    it('records on the manual clock moved by advance(), and reset() forgets the meeting', async () => {
      const e = emu!;
      const meeting = await call(e, 'POST', '/v2/meetings', { title: 'In a container' });
      expect(meeting.status).toBe(201);
      const participant = await call(e, 'POST', `/v2/meetings/${meeting.body.data.id}/participants`, {
        name: 'Ada',
        preset_name: 'group_call_host',
        custom_participant_id: 'ada',
      });
      expect(participant.status).toBe(201);

      const started = await call(e, 'POST', '/v2/recordings', { meeting_id: meeting.body.data.id });
      expect(started.status).toBe(200);
      expect(started.body.data.status).toBe('INVOKED');

      // The recorder joins 3 s after the start: the clock moves only when told to.
      await e.advance(2_999);
      expect((await call(e, 'GET', `/v2/recordings/${started.body.data.id}`)).body.data.status).toBe('INVOKED');
      await e.advance(1);
      expect((await call(e, 'GET', `/v2/recordings/${started.body.data.id}`)).body.data.status).toBe('RECORDING');

      await e.reset();
      expect((await call(e, 'GET', `/v2/meetings/${meeting.body.data.id}`)).status).toBe(404);
    });

    it('runs a given image with copied fixtures and a start time', async () => {
      const fixtures = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8')) as {
        organizations: { id: string; name: string; api_key: string }[];
      };
      const org = { id: '00000000-0000-4000-8000-0000000000c7', name: 'Container Org', api_key: 'container-key' };
      const other = await new MeetingsEmulatorContainer(DEFAULT_BUILT_IMAGE)
        .withFixtures({ ...fixtures, organizations: [org] } as never)
        .withStartTime('2030-05-06T07:08:09Z')
        .start();
      try {
        expect(other.orgId).toBe(org.id);
        expect(other.authHeader).toBe(`Basic ${Buffer.from(`${org.id}:container-key`).toString('base64')}`);
        const health = (await (await fetch(`${other.url}/_emulator/health`)).json()) as { clock: { now: string; mode: string }; organizations: number };
        expect(health).toMatchObject({ clock: { now: '2030-05-06T07:08:09.000Z', mode: 'manual' }, organizations: 1 });
        expect((await call(other, 'POST', '/v2/meetings', { title: 'Custom org' })).status).toBe(201);
      } finally {
        await other.stop();
      }
    }, 120_000);
  });
}
