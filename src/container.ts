// The composition root: the one place that picks implementations (clock, ids, keys, services)
// and wires them together.
import path from 'node:path';
import { ManualClock, SystemClock, type Clock } from './core/clock.js';
import { EventBus } from './core/events.js';
import { createIdGenerator, type IdGenerator } from './core/ids.js';
import { KeySlot, signingKeyFrom, type SigningKey } from './core/keys.js';
import { Scheduler } from './core/scheduler.js';
import { ingestServers, manualClockStart, PACKAGE_ROOT, type Config } from './config.js';
import { orgData, type DomainContext } from './domain/context.js';
import type { DomainEvent } from './domain/events.js';
import { AccountsService } from './domain/accounts/accounts.service.js';
import { LivestreamsService } from './domain/livestreams/livestreams.service.js';
import { ProductsService } from './domain/products/products.service.js';
import { MediaLinks, mediaFilesIn } from './domain/media/media-links.js';
import { mediaNetworkOf } from './realtime/media/media-network.js';
import { MeetingsService } from './domain/meetings/meetings.service.js';
import { OrganizationsService } from './domain/organizations/organizations.service.js';
import { ParticipantTokens } from './domain/participants/participant-tokens.js';
import { ParticipantsService } from './domain/participants/participants.service.js';
import { PresetsService } from './domain/presets/presets.service.js';
import { RecordingsService } from './domain/recordings/recordings.service.js';
import { RecordingFiles } from './domain/recordings/recording-files.js';
import { StorageSecretVault } from './domain/recordings/storage-secrets.js';
import { StorageDelivery } from './storage/storage-delivery.js';
import { locateExecutable } from './core/executables.js';
import { SessionsService } from './domain/meetings/sessions.service.js';
import { WaitingRoomService } from './domain/meetings/waiting-room.service.js';
import { StageService } from './domain/meetings/stage.service.js';
import { ConnectedMeetingsService } from './domain/meetings/connected-meetings.service.js';
import { SessionHistoryService } from './domain/sessions/session-history.service.js';
import { ChatFilesService } from './domain/sessions/chat-files.js';
import { Simulator } from './simulator/simulator.js';
import { FixtureError, loadFixturesFile, type Fixtures } from './store/fixtures.js';
import { WebhooksService } from './domain/webhooks/webhooks.service.js';
import { configWebhooks, targetResolver, WebhookDispatcher } from './webhooks/dispatcher.js';
import { Outbox } from './webhooks/outbox.js';
import { WebhookSigner } from './webhooks/signer.js';
import { HttpTransport, type WebhookTransport } from './webhooks/transport.js';
import { Store } from './store/store.js';
import { createLogger, type Logger } from './logger.js';
import { RequestScope } from './core/request-scope.js';
import { RateLimiter } from './core/rate-limiter.js';
import { realSleep } from './core/clock.js';
import { RequestJournal } from './journal/request-journal.js';
import { FaultRules } from './faults/fault-rules.js';
import { StateService } from './state/state.service.js';
import { LiveFeed } from './ui/live-feed.js';
import { createSignallingServer, type SignallingServer } from './realtime/signalling.js';
import { credentialsFromFiles, TlsIdentity } from './realtime/tls.js';

export interface Deps {
  config: Config;
  clock: Clock;
  ids: IdGenerator;
  scheduler: Scheduler;
  bus: EventBus<DomainEvent>;
  store: Store;
  logger: Logger;
  fixtures: Fixtures;
  /** The signing keys, made on first use; `warm()` makes both now (before a state save). */
  keys: { participantTokens: SigningKey; webhooks: SigningKey; warm(): void };
  media: MediaLinks;
  /** Whether livestreams carry the room's or an encoder's picture (the media plane, ffmpeg) or the simulator's. */
  livestreamMedia: LivestreamMediaMode;
  simulator: Simulator;
  services: {
    organizations: OrganizationsService;
    accounts: AccountsService;
    meetings: MeetingsService;
    participants: ParticipantsService;
    recordings: RecordingsService;
    livestreams: LivestreamsService;
    products: ProductsService;
    sessions: SessionsService;
    connectedMeetings: ConnectedMeetingsService;
    sessionHistory: SessionHistoryService;
    waitingRoom: WaitingRoomService;
    stage: StageService;
    /** The images and files pages upload for chat (in memory, bounded). */
    chatFiles: ChatFilesService;
    webhooks: WebhooksService;
    presets: PresetsService;
  };
  /** Webhook delivery: the outbox (log, retries, `idle()`), the dispatcher, the signer. */
  webhooks: { outbox: Outbox; dispatcher: WebhookDispatcher; signer: WebhookSigner };
  journal: RequestJournal;
  faults: FaultRules;
  rateLimiter: RateLimiter;
  requestScope: RequestScope;
  /** Real waiting for injected latency; tests replace it. */
  sleep: (ms: number) => Promise<void>;
  /** What the dashboard watches (GET /_emulator/events): domain events, deliveries, clock moves, requests. */
  feed: LiveFeed;
  /** Snapshots: export and import of the whole state (GET|PUT /_emulator/state, --state-file). */
  state: StateService;
  /** The web SDK's signalling socket: the listeners hand it their HTTP upgrades. */
  signalling: SignallingServer;
  /** The TLS listener's certificate and key: --tls-cert/--tls-key, or made on first use. */
  tls: TlsIdentity;
  /** Uploads of recordings to their apps' own storage (storage_config), and what each sent where. */
  storage: StorageDelivery;
  /** The RTMP ingest's connections (none where nothing listens: an app built without a port). */
  ingest: IngestCounts;
  /** Returns every stateful piece to the fixtures (POST /_emulator/reset). */
  reset(): void;
}

export interface BuildOptions {
  /** Already-parsed fixtures (tests); otherwise config.fixtures is read. */
  fixtures?: Fixtures;
  logger?: Logger;
  clock?: Clock;
  /** How webhooks leave the emulator; default HTTP (node:http/https). */
  webhookTransport?: WebhookTransport;
  /** The TLS identity, when the caller has read --tls-cert/--tls-key already (runtime.ts, before listening). */
  tls?: TlsIdentity;
  /** The RTMP ingest, when one listens (runtime.ts): its connections, for the health check. */
  ingest?: IngestCounts;
}

/** What the health check tells of the RTMP ingest's connections. */
export interface IngestCounts {
  counts(): { connections: number; publishing: number };
}

/**
 * A signing key from the fixtures' PEM (checked at start), or generated (derived from --seed
 * when given) on first use: deriving one costs a few hundred ms, which runs that never sign
 * should not pay.
 */
function keySlot(pem: string | undefined, name: string, ids: IdGenerator, purpose: string): KeySlot {
  if (pem !== undefined) {
    let key: SigningKey;
    try {
      key = signingKeyFrom(pem);
    } catch (err) {
      throw new FixtureError(`${name}: not a usable RSA private key (${(err as Error).message})`);
    }
    return new KeySlot(() => key);
  }
  return new KeySlot(() => signingKeyFrom(ids.rsaKey(purpose)));
}

export const MEDIA_DIR = path.join(PACKAGE_ROOT, 'fixtures', 'media');

/** Whether recordings hold the meeting: asked for (--recordings real) and ffmpeg found; else the sample, and why. */
function recordingFilesOptions(config: Config, media: MediaLinks) {
  const limitBytes = config.recordingDiskLimitMb * 1024 * 1024;
  if (config.recordings === 'sample') return { real: false, why: 'every recording is the sample file (--recordings sample)', limitBytes, sample: media.files };
  const ffmpeg = locateExecutable('ffmpeg', config.ffmpeg);
  if ('missing' in ffmpeg)
    return { real: false, why: `every recording is the sample file: ${ffmpeg.missing} (install ffmpeg, or give --ffmpeg)`, limitBytes, sample: media.files };
  return { real: true, ffmpeg: ffmpeg.path, limitBytes, sample: media.files };
}

/** What carries livestreams' pictures: the media plane with ffmpeg (real), or the simulator, and why. */
export type LivestreamMediaMode = { real: true; ffmpeg: string; segmentSeconds: number } | { real: false; why: string };

/** Real livestreams: asked for (--livestreams real), media on, ffmpeg found; else the simulator, and why. */
function livestreamMediaMode(config: Config): LivestreamMediaMode {
  if (config.livestreams === 'sample')
    return { real: false, why: 'every livestream is simulated: LIVE on a timer, the sample segments (--livestreams sample)' };
  if (config.media === 'off') return { real: false, why: 'every livestream is simulated: LIVE on a timer, the sample segments (--media off)' };
  const ffmpeg = locateExecutable('ffmpeg', config.ffmpeg);
  if ('missing' in ffmpeg) return { real: false, why: `every livestream is simulated: ${ffmpeg.missing} (install ffmpeg, or give --ffmpeg)` };
  return { real: true, ffmpeg: ffmpeg.path, segmentSeconds: config.hlsSegmentSeconds };
}

export function buildClock(config: Config): Clock {
  return config.clock === 'manual' ? new ManualClock(manualClockStart(config)) : new SystemClock(config.timeScale, config.startTime);
}

export function buildDeps(config: Config, opts: BuildOptions = {}): Deps {
  const fixtures = opts.fixtures ?? loadFixturesFile(config.fixtures);
  const logger = opts.logger ?? createLogger(config.logLevel, undefined, config.logFormat);
  const clock = opts.clock ?? buildClock(config);
  const ids = createIdGenerator(config.seed);
  const scheduler = new Scheduler(clock, (err, job) => logger.error({ err, job: { key: job.key, kind: job.kind } }, 'scheduled job failed'));
  const bus = new EventBus<DomainEvent>();
  const store = new Store();
  const tokenKey = keySlot(fixtures.participant_token_key, 'participant_token_key', ids, 'participant-tokens');
  const media = new MediaLinks(config.publicUrl, ids.token(32), mediaFilesIn(MEDIA_DIR), ingestServers(config));
  const ctx: DomainContext = { store, clock, ids, bus, scheduler };

  // Storage credentials: kept here only, in memory (never in a model, an export or a log).
  const storageSecrets = new StorageSecretVault();
  const meetings = new MeetingsService(ctx, storageSecrets);
  const recordingFiles = new RecordingFiles(recordingFilesOptions(config, media));
  const recordings = new RecordingsService(ctx, media, recordingFiles, logger, storageSecrets);
  const livestreams = new LivestreamsService(ctx);
  const chatFiles = new ChatFilesService(ctx, media);
  const sessionHistory = new SessionHistoryService(ctx, media, chatFiles);
  const sessions = new SessionsService(ctx, recordings, livestreams, sessionHistory);
  const connectedMeetings = new ConnectedMeetingsService(ctx, meetings, sessions);
  const participants = new ParticipantsService(ctx, new ParticipantTokens(() => tokenKey.get()), sessions);
  const waitingRoom = new WaitingRoomService(ctx, sessions);
  const stage = new StageService(ctx, sessions);
  const products = new ProductsService(ctx);
  const webhooks = new WebhooksService(ctx);
  const presets = new PresetsService(ctx);
  const livestreamMedia = livestreamMediaMode(config);
  const simulator = new Simulator(bus, scheduler, recordings, livestreams, config.simulator, !livestreamMedia.real);
  const webhookKey = keySlot(fixtures.webhook_signing_key, 'webhook_signing_key', ids, 'webhooks');
  const signer = new WebhookSigner(() => webhookKey.get());
  const fromConfig = configWebhooks(config.webhookUrls);
  const requestScope = new RequestScope();
  const feed = new LiveFeed(clock);
  feed.watch(bus, scheduler);
  const outbox = new Outbox({
    clock,
    scheduler,
    ids,
    signer,
    transport: opts.webhookTransport ?? new HttpTransport(),
    logger,
    timeoutMs: config.webhookTimeoutMs,
    maxRecords: config.deliveryLogSize,
    resolveTarget: targetResolver(webhooks, fromConfig),
    // Links each delivery to the request that caused it (request journal).
    onCreated: (d) => requestScope.current()?.deliveries.push(d.id),
    onChanged: (d) => feed.delivery(d),
  });
  const dispatcher = new WebhookDispatcher(bus, webhooks, outbox, fromConfig, logger);
  // The web SDK's pages: they join and leave through the same presence services as scripted joins.
  const signalling = createSignallingServer({
    logger,
    clock,
    ids,
    bus,
    scheduler,
    organization: (orgId) => orgData(ctx, orgId).org,
    presentIn: (meetingId) => sessions.presence(meetingId).present,
    onClockChange: (listener) => scheduler.onChange(listener),
    participants,
    media: config.media,
    mediaPlane: config.mediaPlane,
    mediaPlaneIdleMs: config.mediaPlaneIdleMs,
    mediaNetwork: mediaNetworkOf(config),
    sessions,
    waitingRoom,
    stage,
    history: sessionHistory,
    connectedMeetings,
    recordings,
    livestreams,
    livestreamMedia: livestreamMedia.real ? { ffmpeg: livestreamMedia.ffmpeg, segmentSeconds: livestreamMedia.segmentSeconds } : null,
    timeScale: config.timeScale,
    playbackUrl: (id) => media.playbackUrl(id),
    organizationName: (orgId) => orgData(ctx, orgId).org.name,
    verifyToken: (token, now) => participants.tokens.verify(token, now),
  });
  connectedMeetings.attachFrontends(signalling);
  sessionHistory.attachPages(signalling);
  // The one list of what an organization is made of: on a load or an organization's reset each
  // member seeds its share of the document, and on a reset each drops what it holds outside the
  // store first. Adding a resource means adding it here.
  const organizations = new OrganizationsService(ctx, [
    products,
    webhooks,
    meetings,
    participants,
    recordings,
    livestreams,
    sessionHistory,
    // Who waits in the organization's meetings, and who stands where on their stages (kept in memory, outside the store).
    waitingRoom,
    stage,
    // Participants on their way between breakout rooms.
    connectedMeetings,
    chatFiles,
    // Pending lifecycle steps and webhook retries of the organization.
    { resetOrg: (orgId) => scheduler.cancelOrg(orgId) },
    // The files its recordings left on disk.
    recordingFiles,
    // Its storage credentials, and its recordings' uploads in flight.
    storageSecrets,
    { resetOrg: (orgId) => storage.resetOrg(orgId) },
    outbox,
    // The organization's pages: their participants are gone.
    signalling,
  ]);
  const accounts = new AccountsService(ctx, organizations);
  const idsStart = ids.position();
  const journal = new RequestJournal(config.journalSize);
  // After the files are complete and before UPLOADED: the files go to the app's own storage.
  const storage = new StorageDelivery({
    endpoints: config.storageEndpoints,
    timeoutMs: config.storageTimeoutMs,
    secrets: storageSecrets,
    journal,
    clock,
    logger,
    onChanged: (u) => feed.upload(u),
  });
  recordings.delivery.addStep(storage);
  const faults = new FaultRules();
  const rateLimiter = new RateLimiter(config.rateLimit);
  const state = new StateService(
    {
      clock,
      ids,
      idsStart,
      scheduler,
      store,
      organizations,
      accounts,
      simulator,
      outbox,
      keys: { participantTokens: tokenKey, webhooks: webhookKey },
      // Observability and traffic shaping start afresh with every load.
      // The waiting room, the stage and the moves between breakout rooms hold pages and scripted
      // participants of the meetings being replaced; chat files belong to those meetings.
      // Recordings' files are not part of a state document: a loaded recording has none (the sample is served).
      // Storage credentials are never part of a state document either: a loaded recording has none.
      volatile: [
        journal,
        faults,
        rateLimiter,
        feed,
        signalling,
        waitingRoom,
        stage,
        connectedMeetings,
        chatFiles,
        recordingFiles,
        storageSecrets,
        storage,
        // Who watches the livestreams: in memory only.
        livestreams.viewers,
      ],
    },
    fixtures,
  );

  const deps: Deps = {
    config,
    clock,
    ids,
    scheduler,
    bus,
    store,
    logger,
    fixtures,
    keys: {
      get participantTokens() {
        return tokenKey.get();
      },
      get webhooks() {
        return webhookKey.get();
      },
      warm() {
        tokenKey.warm();
        webhookKey.warm();
      },
    },
    media,
    livestreamMedia,
    simulator,
    services: {
      organizations,
      accounts,
      meetings,
      participants,
      recordings,
      livestreams,
      products,
      sessions,
      connectedMeetings,
      sessionHistory,
      waitingRoom,
      stage,
      chatFiles,
      webhooks,
      presets,
    },
    webhooks: { outbox, dispatcher, signer },
    journal,
    faults,
    rateLimiter,
    requestScope,
    sleep: realSleep,
    feed,
    state,
    signalling,
    tls: opts.tls ?? new TlsIdentity(credentialsFromFiles(config.tlsCert, config.tlsKey)),
    storage,
    ingest: opts.ingest ?? { counts: () => ({ connections: 0, publishing: 0 }) },
    reset() {
      state.reset();
    },
  };
  deps.reset();
  return deps;
}
