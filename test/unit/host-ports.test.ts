// The ports the Testcontainers module publishes: outside the range the machine hands out by itself,
// free for TCP and UDP on every interface. The picks bind real sockets: these tests are about ports.
import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BELOW_RANGE, ephemeralRange, freeOnEveryInterface, hostPortPicker, pickHostPort, portsOutside } from '../../src/core/host-ports.js';

const held: (Server | Socket)[] = [];

afterEach(async () => {
  for (const h of held.splice(0)) await new Promise<void>((resolve) => h.close(() => resolve()));
});

/** Holds `port` for TCP on every interface until the test ends; answers the port (0: the kernel's pick). */
async function holdTcp(port: number): Promise<number> {
  const server = createServer();
  held.push(server);
  await new Promise<void>((resolve) => server.listen(port, resolve));
  return (server.address() as { port: number }).port;
}

/** Holds `port` for UDP until the test ends. */
async function holdUdp(port: number): Promise<void> {
  const socket = createSocket('udp4');
  held.push(socket);
  await new Promise<void>((resolve) => socket.bind(port, resolve));
}

/** Linux's default range, and where the picks are drawn from with it. */
const LINUX = { from: 32768, to: 60999 };
const OUTSIDE = portsOutside(LINUX)!;

/** Two ports free here, drawn from OUTSIDE from `offset` on (a test's own, so that tests do not meet). */
async function twoFree(offset: number): Promise<[number, number]> {
  const free: number[] = [];
  for (let port = OUTSIDE.from + offset; free.length < 2 && port <= OUTSIDE.to; port += 101) if ((await freeOnEveryInterface(port)) !== null) free.push(port);
  return free as [number, number];
}

/** A `random` for the picks that draws these ports of OUTSIDE, in order. */
function drawing(...ports: number[]): () => number {
  const draws = ports.map((port) => (port - OUTSIDE.from + 0.5) / (OUTSIDE.to - OUTSIDE.from + 1));
  return () => draws.shift()!;
}

describe('the range the machine hands out by itself', () => {
  it.each([
    ['32768\t60999\n', { from: 32768, to: 60999 }],
    ['1024 65535', { from: 1024, to: 65535 }],
    ['49152 49152', { from: 49152, to: 49152 }],
    ['  32768  60999', { from: 32768, to: 60999 }],
    ['1 1000', { from: 1, to: 1000 }],
  ])('is read from Linux: %j', (text, range) => {
    expect(ephemeralRange(() => text)).toEqual(range);
  });

  it.each(['', 'x y', '60999 32768', '0 1000', '1024 70000', '1024'])('is IANA’s dynamic ports when the file says %j', (text) => {
    expect(ephemeralRange(() => text)).toEqual({ from: 49152, to: 65535 });
  });

  it('is IANA’s dynamic ports where there is no such file (macOS, Windows)', () => {
    expect(
      ephemeralRange(() => {
        throw new Error('ENOENT');
      }),
    ).toEqual({ from: 49152, to: 65535 });
  });

  it('is what this machine says, a range of ports', () => {
    const range = ephemeralRange();
    expect(range.from).toBeGreaterThan(0);
    expect(range.to).toBeGreaterThanOrEqual(range.from);
  });
});

describe('where the ports are taken from', () => {
  it.each([
    ['Linux’s default', { from: 32768, to: 60999 }, BELOW_RANGE],
    ['IANA’s dynamic ports', { from: 49152, to: 65535 }, BELOW_RANGE],
    ['a range that starts inside the ports below it', { from: 25000, to: 60999 }, { from: 20000, to: 24999 }],
    ['a range that leaves exactly enough below', { from: 21000, to: 60999 }, { from: 20000, to: 20999 }],
    ['a range that leaves exactly enough above, too few below', { from: 20500, to: 64535 }, { from: 64536, to: 65535 }],
    ['a range that leaves too few below, many above', { from: 20500, to: 40000 }, { from: 40001, to: 65535 }],
    ['a range that leaves nothing below, many above', { from: 1024, to: 30000 }, { from: 30001, to: 65535 }],
  ])('%s', (_name, range, outside) => {
    expect(portsOutside(range)).toEqual(outside);
  });

  it.each([
    ['every port', { from: 1024, to: 65535 }],
    ['too few on either side', { from: 20500, to: 64600 }],
  ])('nowhere when the range leaves no room: %s (the kernel then picks)', (_name, range) => {
    expect(portsOutside(range)).toBeNull();
  });
});

describe('a port free on every interface', () => {
  it('is free for TCP and UDP', async () => {
    const port = await freeOnEveryInterface(0);
    expect(port).not.toBeNull();
    await holdTcp(port!);
    await holdUdp(port!);
  });

  it('is not one held for TCP', async () => {
    expect(await freeOnEveryInterface(await holdTcp(0))).toBeNull();
  });

  it('is not one held for UDP', async () => {
    const port = (await freeOnEveryInterface(0))!;
    await holdUdp(port);
    expect(await freeOnEveryInterface(port)).toBeNull();
  });
});

describe('pickHostPort', () => {
  it('takes a free port outside the machine’s range, and it is free for TCP and UDP', async () => {
    const range = ephemeralRange();
    const outside = portsOutside(range);
    const port = await pickHostPort();
    if (outside) {
      expect(port).toBeGreaterThanOrEqual(outside.from);
      expect(port).toBeLessThanOrEqual(outside.to);
    }
    await holdTcp(port);
    await holdUdp(port);
  });

  it('passes over a port that is taken, to the next one drawn', async () => {
    // Two free ports, the first then held here: the pick is the second.
    const [taken, next] = await twoFree(17);
    await holdTcp(taken);
    expect(await pickHostPort({ range: LINUX, random: drawing(taken, next) })).toBe(next);
  });

  it('draws over the whole of the outside: its last port too', async () => {
    expect(await freeOnEveryInterface(OUTSIDE.to), `${OUTSIDE.to} is free here`).toBe(OUTSIDE.to);
    expect(await pickHostPort({ range: LINUX, random: () => 0.9999999 })).toBe(OUTSIDE.to);
  });

  it('tries fifty ports outside, then lets the kernel pick', async () => {
    const [taken] = await twoFree(67);
    await holdTcp(taken);
    let drawn = 0;
    const takenDraw = drawing(taken)();
    const port = await pickHostPort({
      range: LINUX,
      random: () => {
        drawn++;
        return takenDraw;
      },
    });
    expect(drawn).toBe(50);
    expect(port).not.toBe(taken);
    await holdTcp(port);
    await holdUdp(port);
  });

  it('lets the kernel pick when the range leaves no room outside it', async () => {
    const everything = { from: 1024, to: 65535 };
    let drawn = 0;
    const port = await pickHostPort({
      range: everything,
      random: () => {
        drawn++;
        return 0;
      },
    });
    expect(drawn).toBe(0);
    expect(port).toBeGreaterThan(0);
    await holdTcp(port);
    await holdUdp(port);
  });

  it('passes over a port it is told is already picked, without checking it', async () => {
    const [picked, next] = await twoFree(29);
    expect(await pickHostPort({ range: LINUX, random: drawing(picked, next), except: new Set([picked]) })).toBe(next);
  });
});

describe('hostPortPicker', () => {
  it('never picks the same port twice for one container, even when the draws repeat', async () => {
    const [first, second] = await twoFree(41);
    const pick = hostPortPicker({ range: LINUX, random: drawing(first, first, second) });
    expect([await pick(), await pick()]).toEqual([first, second]);
  });

  it('never picks a port the container’s settings name', async () => {
    const [named, other] = await twoFree(53);
    expect(await hostPortPicker({ range: LINUX, random: drawing(named, other), named: [named] })()).toBe(other);
  });
});
