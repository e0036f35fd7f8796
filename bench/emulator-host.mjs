// A child process that runs the built emulator (dist/, the bin's code) in process, so the bench
// can fill it through the domain services — 100 000 meetings over HTTP would take minutes.
//
//   node bench/emulator-host.mjs serve --meetings 100000
//       Listens on 127.0.0.1, port 0, holding N meetings, and prints one line
//       `READY {"url", "authHeader", "sampleId", ...}`. SIGTERM ends it. (growth)
//   node --expose-gc bench/emulator-host.mjs memory --meetings 100000 [--simulator manual] [--snapshot] [--flat-ids]
//       Prints one line `RESULT {...}`: heap and RSS idle, and after N meetings, then after a
//       participant each, then after a recording each (all after a full GC), and the cost of
//       signing participant tokens, measured apart (see below). --snapshot adds what the fill
//       kept, by kind of heap object (two heap snapshots, diffed). (memory)
//
// Plain .mjs run with plain node, so no TypeScript loader sits in the measured process.
import console from 'node:console';
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { setImmediate as tick } from 'node:timers/promises';
import { URL, pathToFileURL } from 'node:url';
import v8 from 'node:v8';

// --dist DIR: another build of the emulator (a baseline), instead of this checkout's dist/.
const distArg = process.argv.indexOf('--dist');
const distIndex = distArg > 0 ? pathToFileURL(`${process.argv[distArg + 1]}/src/index.js`).href : new URL('../dist/src/index.js', import.meta.url).href;
const { startEmulator } = await import(distIndex);

const args = process.argv.slice(2);
const mode = args[0];
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const count = Number(flag('--meetings', '1000'));

const CALLER = { name: 'Bench', type: 'ORGANIZATION', user_id: null };

async function fullGc() {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await tick();
  }
}

/**
 * Self size of everything on the heap, by kind (constructor name for objects, the string
 * representation for strings, V8's internal names otherwise): the diff of two tells what the
 * fill allocated and kept.
 */
async function heapByKind() {
  const chunks = [];
  for await (const c of v8.getHeapSnapshot()) chunks.push(c);
  const snap = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [iType, iName, iSize, width] = [fields.indexOf('type'), fields.indexOf('name'), fields.indexOf('self_size'), fields.length];
  const out = new Map();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + iType]];
    const name = String(snap.strings[snap.nodes[i + iName]]);
    let key;
    if (type === 'object') key = `object ${name.slice(0, 40)}`;
    else if (type === 'string' || type === 'concatenated string' || type === 'sliced string' || type === 'number' || type === 'closure' || type === 'code')
      key = type;
    else key = `${type} ${name.slice(0, 40)}`;
    const e = out.get(key) ?? { bytes: 0, count: 0 };
    e.bytes += snap.nodes[i + iSize];
    e.count += 1;
    out.set(key, e);
  }
  return out;
}

function diffKinds(before, after, per) {
  const rows = [];
  for (const [key, a] of after) {
    const b = before.get(key) ?? { bytes: 0, count: 0 };
    const bytes = (a.bytes - b.bytes) / per;
    if (Math.abs(bytes) >= 4) rows.push({ kind: key, bytesPerMeeting: bytes, objectsPerMeeting: (a.count - b.count) / per });
  }
  return rows.sort((x, y) => y.bytesPerMeeting - x.bytesPerMeeting).slice(0, 15);
}

function sample() {
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
}

if (mode === 'serve') {
  // Same settings as the bin the throughput section runs (real clock, warn logs, journal on).
  const emu = await startEmulator({ port: 0, clock: 'real', logLevel: 'warn' });
  const { meetings } = emu.deps.services;
  const ids = [];
  for (let i = 0; i < count; i++) ids.push(meetings.create(emu.orgId, { title: `Meeting ${i}`, preferredRegion: 'us-east-1' }).id);
  console.log(
    `READY ${JSON.stringify({ url: emu.url, authHeader: emu.authHeader, meetings: count, sampleId: ids[Math.floor(ids.length / 2)], newestId: ids[ids.length - 1] })}`,
  );
  const stop = () => emu.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else if (mode === 'memory') {
  if (typeof globalThis.gc !== 'function') {
    console.error('memory mode needs node --expose-gc');
    process.exit(2);
  }
  // Manual clock: nothing fires by itself, so the store holds exactly what we put in (each
  // recording in INVOKED, with the simulator's pending start job, as a live emulator has).
  const simulator = flag('--simulator', 'auto');
  const emu = await startEmulator({ port: 0, clock: 'manual', logLevel: 'silent', simulator });
  const { meetings, participants, recordings } = emu.deps.services;
  const orgId = emu.orgId;
  await fullGc();
  const idle = sample();

  // Token signing is measured apart: a participant's token is returned, never stored, so it
  // adds nothing to the store — but 100 000 RS256 signatures would take minutes. The stub
  // below replaces only the signature step; everything else in participants.add runs.
  // Check (no change to src/): ids forced to flat strings. A UUID built by concatenation
  // (Node's randomUUID(), the uuid package) is kept by V8 as a tree of ~20 cons strings for as
  // long as the id lives; src/core/ids.ts flattens ids, and this run shows whether any remain.
  const flatIds = args.includes('--flat-ids');
  if (flatIds) {
    const ids = emu.deps.ids;
    const uuid = ids.uuid.bind(ids);
    ids.uuid = () => Buffer.from(uuid(), 'latin1').toString('latin1');
  }
  const tokens = participants.tokens;
  const realSign = tokens.sign.bind(tokens);
  const probe = meetings.create(orgId, { title: 'signing probe' });
  const SIGN_SAMPLES = 200;
  const t0 = performance.now();
  for (let i = 0; i < SIGN_SAMPLES; i++)
    await participants.add(orgId, probe.id, { presetName: 'group_call_host', customParticipantId: `probe-${i}`, name: 'Probe' });
  const msPerAddWithToken = (performance.now() - t0) / SIGN_SAMPLES;
  tokens.sign = async () => 'stub';
  const t1 = performance.now();
  for (let i = 0; i < SIGN_SAMPLES; i++)
    await participants.add(orgId, probe.id, { presetName: 'group_call_host', customParticipantId: `probe-s-${i}`, name: 'Probe' });
  const msPerAddStubbed = (performance.now() - t1) / SIGN_SAMPLES;
  await fullGc();
  const before = sample();
  const snapshot = args.includes('--snapshot');
  const kindsBefore = snapshot ? await heapByKind() : undefined;
  if (snapshot) await fullGc();

  const started = performance.now();
  const ids = new Array(count);
  // Inputs come through JSON.parse, as a request body does (flat strings, not concatenations).
  for (let i = 0; i < count; i++) {
    const body = JSON.parse(`{"title":"Weekly sync ${i}","preferred_region":"us-east-1"}`);
    ids[i] = meetings.create(orgId, { title: body.title, preferredRegion: body.preferred_region }).id;
  }
  await fullGc();
  const afterMeetings = sample();
  for (let i = 0; i < count; i++) {
    const body = JSON.parse(`{"name":"Participant ${i}","preset_name":"group_call_host","custom_participant_id":"user-${i}"}`);
    await participants.add(orgId, ids[i], { presetName: body.preset_name, customParticipantId: body.custom_participant_id, name: body.name });
  }
  await fullGc();
  const afterParticipants = sample();
  for (let i = 0; i < count; i++) recordings.start(orgId, { meetingId: ids[i] }, CALLER);
  const fillMs = performance.now() - started;
  await fullGc();
  const after = sample();
  tokens.sign = realSign;
  const breakdown = snapshot ? diffKinds(kindsBefore, await heapByKind(), count) : undefined;

  console.log(
    `RESULT ${JSON.stringify({
      meetings: count,
      simulator,
      flatIds,
      idle,
      before,
      afterMeetings,
      afterParticipants,
      after,
      fillMs,
      scheduledJobs: emu.deps.scheduler.list().length,
      msPerAddWithToken,
      msPerAddStubbed,
      breakdown,
    })}`,
  );
  await emu.close();
  process.exit(0);
} else {
  console.error('usage: emulator-host.mjs serve|memory --meetings N');
  process.exit(2);
}
