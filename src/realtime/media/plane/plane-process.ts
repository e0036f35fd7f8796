// The media plane's own process (process-engine.ts starts it): the engine, serving the emulator's
// calls over the IPC channel in the order they come. It ends when the emulator lets it go (the
// channel closes) or ends itself.
import { ENGINE_OPS, onTheWire, type EngineCall, type EngineReply } from '../engine.js';
import { LocalMediaEngine } from './local-engine.js';

const engine = new LocalMediaEngine();

function reply(msg: EngineReply): void {
  if (process.connected) process.send!(msg);
}

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
process.on('message', (msg: EngineCall) => void serve(msg));
// The emulator let it go, or is gone: the sockets and memory go with the process.
process.on('disconnect', () => process.exit(0));
