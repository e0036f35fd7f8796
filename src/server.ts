#!/usr/bin/env node
// The command line: reads argv/env, starts the emulator (runtime.ts), prints where it listens,
// and turns SIGTERM/SIGINT into a graceful close and exit 0.
import { helpText, ingestServers, parseConfig, type StorageEndpoints } from './config.js';
import { VERSION } from './core/package-info.js';
import { describeMediaNetwork, mediaNetworkOf } from './realtime/media/media-network.js';
import { listenEmulator, StartError } from './runtime.js';

function fail(reason: string): never {
  process.stderr.write(`meetings-emulator: ${reason}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const parsed = parseConfig(process.argv.slice(2), process.env);
  if (!parsed.ok) fail(parsed.reason);
  if ('help' in parsed) {
    process.stdout.write(helpText());
    return;
  }
  if ('version' in parsed) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const emulator = await listenEmulator(parsed.config).catch((err: unknown) => {
    if (err instanceof StartError) fail(err.message);
    throw err;
  });
  const { config, deps } = emulator;

  // The whole close takes under 2 s, even with a webhook receiver that never answers. The handlers
  // are in place before the URL is printed: whoever waits for that line may signal at once.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info({ signal }, 'shutting down');
    await emulator.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const org = deps.fixtures.organizations[0]!;
  const basic = Buffer.from(`${org.id}:${org.api_key}`).toString('base64');
  process.stdout.write(
    [
      `meetings-emulator listening on ${config.publicUrl}`,
      `  clock: ${deps.clock.mode}${deps.clock.mode === 'real' && config.timeScale !== 1 ? ` (x${config.timeScale})` : ''}, now ${new Date(deps.clock.now()).toISOString()}`,
      `  organization: ${org.id} (${org.name})`,
      `  v2 header: Authorization: Basic ${basic}`,
      `  v1 header: Authorization: Bearer ${org.api_key}`,
      `  control API: ${config.publicUrl}/_emulator/health, OpenAPI at ${config.publicUrl}/_emulator/openapi.json`,
      `  dashboard: ${config.publicUrl}/_emulator/ui`,
      ...(emulator.tlsUrl
        ? [`  TLS (web SDK): ${emulator.tlsUrl}, baseURI '${new URL(emulator.tlsUrl).host}'; certificate at ${config.publicUrl}/_emulator/tls/certificate`]
        : []),
      `  storage uploads: ${storageLine(config.storageEndpoints)}`,
      `  media: ${config.media === 'on' ? 'on (audio and video flow between pages over WebRTC)' : 'off (media requests are refused; --media on carries them)'}; media plane: ${config.mediaPlane === 'process' ? 'a process of its own while a room holds media' : "inline, in the emulator's process"}`,
      ...(config.media === 'on' ? [`  media listens on ${describeMediaNetwork(mediaNetworkOf(config))}`] : []),
      `  recordings: ${deps.services.recordings.files.real ? `they hold the meeting, made with ${deps.services.recordings.files.ffmpeg}` : deps.services.recordings.files.why}`,
      `  livestreams: ${deps.livestreamMedia.real ? `they show the meeting or an encoder's push, as HLS made with ${deps.livestreamMedia.ffmpeg}` : deps.livestreamMedia.why}`,
      `  RTMP ingest: ${ingestLine(ingestServers(config))}`,
      '',
    ].join('\n'),
  );
}

/** Where encoders push, on the start line (the stream key goes after the last slash). */
function ingestLine(ingest: { rtmps: string | null; rtmp: string | null }): string {
  const parts = [ingest.rtmps && `${ingest.rtmps}<stream key> (the emulator's certificate)`, ingest.rtmp && `${ingest.rtmp}<stream key>`].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'off (--rtmps-port, --rtmp-port)';
}

/**
 * Where recordings with a storage_config go, on the start line: the endpoint of each S3 or Azure
 * type given one, the SFTP hosts (this machine's loopback always, others once allowed), and the
 * types that are not sent anywhere.
 */
function storageLine(e: StorageEndpoints): string {
  const types = ['aws', 'digitalocean', 'azure'] as const;
  const parts = types.filter((t) => e[t]).map((t) => `${t}=${e[t]}`);
  const hosts = e.sftpHosts ?? [];
  parts.push(hosts.includes('*') ? 'sftp=any host' : `sftp=this machine's loopback${hosts.length > 0 ? ` and ${hosts.join(', ')}` : ''}`);
  const unsent = types.filter((t) => !e[t]);
  const line = parts.join(', ');
  return unsent.length > 0 ? `${line}; ${unsent.join(', ')} not sent anywhere (--storage-endpoint TYPE=URL)` : line;
}

main().catch((err: unknown) => {
  process.stderr.write(`meetings-emulator: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
