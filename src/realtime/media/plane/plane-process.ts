// The media plane's own process (process-engine.ts starts it): the engine, serving the emulator's
// calls over the IPC channel in the order they come. It ends when the emulator lets it go (the
// channel closes) or ends itself. Where its sockets listen comes as its one argument (JSON), and it
// tells the emulator when they open and close, for the health answer.
import { ENGINE_OPS, onTheWire, type EngineCall, type EngineReply, type PlaneLogLine } from '../engine.js';
import type { PlaneLogger } from '../media-types.js';
import { LocalMediaEngine } from './local-engine.js';
import { killAllFfmpeg } from './recorder/ffmpeg-process.js';
import type { MediaNetwork } from '../media-network.js';

function reply(msg: EngineReply): void {
  if (process.connected) process.send!(msg);
}

/** The plane logs through the emulator's logger: each line crosses the channel. */
const log =
  (level: PlaneLogLine['level']) =>
  (fields: object, message: string): void =>
    reply({ log: { level, fields, message } });
const logger: PlaneLogger = { info: log('info'), warn: log('warn'), error: log('error') };

const engine = new LocalMediaEngine(logger, JSON.parse(process.argv[2] ?? '') as MediaNetwork, (listening) => reply({ listening }));

async function serve({ id, op, args }: EngineCall): Promise<void> {
  try {
    if (!ENGINE_OPS.has(op)) throw new Error(`The media plane has no operation ${String(op)}`);
    const method = engine[op] as (...a: unknown[]) => unknown;
    const value = await method.apply(engine, args);
    reply({ id, value, holds: engine.holds() });
  } catch (err) {
    reply({ id, error: onTheWire(err), holds: engine.holds() });
  }
}

engine.onTransportFailed((failed) => reply({ failed }));
engine.onPathRecovered((recovered) => reply({ recovered }));
engine.onRecorderEvent((recorder) => reply({ recorder, holds: engine.holds() }));
process.on('message', (msg: EngineCall) => void serve(msg));
// The emulator let it go, or is gone: the sockets and memory go with the process, and its encoders with it.
process.on('disconnect', () => {
  killAllFfmpeg();
  process.exit(0);
});
