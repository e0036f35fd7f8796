// The composition root: the one place that picks implementations (clock, ids, keys, services)
// and wires them together.
import path from 'node:path';
import { ManualClock, SystemClock, type Clock } from './core/clock.js';
import { EventBus } from './core/events.js';
import { createIdGenerator, type IdGenerator } from './core/ids.js';
import { signingKeyFrom, type SigningKey } from './core/keys.js';
import { Scheduler } from './core/scheduler.js';
import { DEFAULT_MANUAL_START, PACKAGE_ROOT, type Config } from './config.js';
import type { DomainContext } from './domain/context.js';
import type { DomainEvent } from './domain/events.js';
import { LivestreamsService } from './domain/livestreams/livestreams.service.js';
import { MediaLinks, mediaFilesIn } from './domain/media/media-links.js';
import { MeetingsService } from './domain/meetings/meetings.service.js';
import { OrganizationsService } from './domain/organizations/organizations.service.js';
import { ParticipantTokens } from './domain/participants/participant-tokens.js';
import { ParticipantsService } from './domain/participants/participants.service.js';
import { RecordingsService } from './domain/recordings/recordings.service.js';
import { Simulator } from './simulator/simulator.js';
import { loadFixturesFile, type Fixtures } from './store/fixtures.js';
import { Store } from './store/store.js';
import { createLogger, type Logger } from './logger.js';

export interface Deps {
  config: Config;
  clock: Clock;
  ids: IdGenerator;
  scheduler: Scheduler;
  bus: EventBus<DomainEvent>;
  store: Store;
  logger: Logger;
  fixtures: Fixtures;
  keys: { participantTokens: SigningKey };
  media: MediaLinks;
  simulator: Simulator;
  services: {
    organizations: OrganizationsService;
    meetings: MeetingsService;
    participants: ParticipantsService;
    recordings: RecordingsService;
    livestreams: LivestreamsService;
  };
  /** Returns every stateful piece to the fixtures (POST /_emulator/reset). */
  reset(): void;
  /** When `ready` is true, fixtures are loaded and the API answers. */
  ready: boolean;
}

export interface BuildOptions {
  /** Already-parsed fixtures (tests); otherwise config.fixtures is read. */
  fixtures?: Fixtures;
  logger?: Logger;
  clock?: Clock;
}

export const MEDIA_DIR = path.join(PACKAGE_ROOT, 'fixtures', 'media');

export function buildClock(config: Config): Clock {
  return config.clock === 'manual'
    ? new ManualClock(config.startTime ?? DEFAULT_MANUAL_START)
    : new SystemClock(config.timeScale, config.startTime);
}

export function buildDeps(config: Config, opts: BuildOptions = {}): Deps {
  const fixtures = opts.fixtures ?? loadFixturesFile(config.fixtures);
  const logger = opts.logger ?? createLogger(config.logLevel);
  const clock = opts.clock ?? buildClock(config);
  const ids = createIdGenerator(config.seed);
  const scheduler = new Scheduler(clock, (err, job) => logger.error({ err, job: { key: job.key, kind: job.kind } }, 'scheduled job failed'));
  const bus = new EventBus<DomainEvent>();
  const store = new Store();
  const participantTokens = signingKeyFrom(ids.rsaKey('participant-tokens'));
  const media = new MediaLinks(config.publicUrl, ids.token(32), mediaFilesIn(MEDIA_DIR));
  const ctx: DomainContext = { store, clock, ids, bus, scheduler, publicUrl: config.publicUrl };

  const organizations = new OrganizationsService(ctx);
  const meetings = new MeetingsService(ctx);
  const participants = new ParticipantsService(ctx, new ParticipantTokens(participantTokens));
  const recordings = new RecordingsService(ctx, media);
  const livestreams = new LivestreamsService(ctx);
  const simulator = new Simulator(bus, scheduler, recordings, livestreams);
  const idsStart = ids.position();

  const deps: Deps = {
    config,
    clock,
    ids,
    scheduler,
    bus,
    store,
    logger,
    fixtures,
    keys: { participantTokens },
    media,
    simulator,
    services: { organizations, meetings, participants, recordings, livestreams },
    ready: false,
    reset() {
      clock.reset();
      ids.setPosition(idsStart);
      scheduler.reset();
      simulator.reset();
      organizations.load(fixtures);
    },
  };
  deps.reset();
  deps.ready = true;
  return deps;
}
