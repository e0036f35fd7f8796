// Summarises a V8 .cpuprofile (node --cpu-prof): self time per function and per area
// (a package, a folder of the emulator, node internals, GC), idle excluded.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './servers.js';

interface CpuNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: CpuNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileRow {
  name: string;
  where: string;
  area: string;
  selfMs: number;
  /** Share of the busy (non-idle) time. */
  share: number;
}

export interface ProfileSummary {
  file: string;
  /** Samples counted: the measured window only (µs, CLOCK_MONOTONIC like process.hrtime). */
  window: string;
  busyMs: number;
  idleMs: number;
  top: ProfileRow[];
  areas: Array<{ area: string; selfMs: number; share: number }>;
  /** The emulator's own functions (dist/src) by inclusive time: where its cost enters. */
  emulatorInclusive: ProfileRow[];
}

function shortUrl(url: string): string {
  if (!url) return '';
  let u = url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
  if (u.startsWith(ROOT)) u = path.relative(ROOT, u);
  return u;
}

function areaOf(name: string, url: string): string {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(program)') return 'V8/native (program)';
  if (name === '(idle)') return 'idle';
  const u = shortUrl(url);
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u);
  if (nm) return nm[1]!;
  const src = /^dist\/src\/([^/]+)/.exec(u);
  if (src) return `emulator ${src[1]!.endsWith('.js') ? src[1] : `${src[1]}/`}`;
  if (u.startsWith('node:internal/')) return `node:internal/${u.slice('node:internal/'.length).split('/')[0]!.replace(/\.js$/, '')}`;
  if (u.startsWith('node:')) return u.split(':')[0] === 'node' ? u.replace(/:\d+$/, '') : u;
  if (u === '') return 'native / builtins';
  return u;
}

export interface Window {
  fromUs: number;
  toUs: number;
}

/**
 * `window` restricts the count to samples taken while the load ran (V8 stamps samples with the
 * same monotonic clock as process.hrtime, so the bench's own readings delimit it): start-up
 * (module loading, key generation) stays out of a throughput profile.
 */
export function summarizeProfile(file: string, topN = 15, window?: Window): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let windowText = 'whole process';
  if (profile.samples && profile.timeDeltas && profile.samples.length === profile.timeDeltas.length) {
    // timeDeltas[i] is the time before sample i; attribute the time after a sample to it.
    let t = profile.startTime;
    let inWindow = 0;
    for (let i = 0; i < profile.samples.length; i++) {
      t += profile.timeDeltas[i]!;
      if (window && (t < window.fromUs || t > window.toUs)) continue;
      inWindow += 1;
      const dt = profile.timeDeltas[i + 1] ?? 0;
      self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + dt / 1000);
    }
    if (window) windowText = `${((window.toUs - window.fromUs) / 1e6).toFixed(1)} s of load (${inWindow} of ${profile.samples.length} samples)`;
  } else {
    const total = (profile.endTime - profile.startTime) / 1000;
    const hits = profile.nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0);
    for (const n of profile.nodes) self.set(n.id, ((n.hitCount ?? 0) * total) / Math.max(1, hits));
  }
  const rows = new Map<string, { name: string; where: string; area: string; selfMs: number }>();
  let idleMs = 0;
  for (const [id, t] of self) {
    const n = byId.get(id);
    if (!n) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    const name = functionName || '(anonymous)';
    if (name === '(idle)') {
      idleMs += t;
      continue;
    }
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
    const key = `${name}@${where}`;
    const row = rows.get(key) ?? { name, where, area: areaOf(name, url), selfMs: 0 };
    row.selfMs += t;
    rows.set(key, row);
  }
  const busyMs = [...rows.values()].reduce((s, r) => s + r.selfMs, 0);

  // Inclusive time of the emulator's own frames: each sample's time goes to every distinct
  // dist/src function on its stack.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, { name: string; where: string; selfMs: number }>();
  for (const [id, t] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)!.callFrame;
      const where = shortUrl(f.url);
      if (!where.startsWith('dist/src/')) continue;
      const key = `${f.functionName}@${where}:${f.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const row = inclusive.get(key) ?? { name: f.functionName || '(anonymous)', where: `${where}:${f.lineNumber + 1}`, selfMs: 0 };
      row.selfMs += t;
      inclusive.set(key, row);
    }
  }
  const emulatorInclusive = [...inclusive.values()]
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, topN)
    .map((r) => ({ ...r, area: 'emulator', share: r.selfMs / busyMs }));
  const top = [...rows.values()]
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, topN)
    .map((r) => ({ ...r, share: r.selfMs / busyMs }));
  const areaMap = new Map<string, number>();
  for (const r of rows.values()) areaMap.set(r.area, (areaMap.get(r.area) ?? 0) + r.selfMs);
  const areas = [...areaMap.entries()]
    .map(([area, selfMs]) => ({ area, selfMs, share: selfMs / busyMs }))
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, 12);
  return { file, window: windowText, busyMs, idleMs, top, areas, emulatorInclusive };
}

/** The one .cpuprofile a profiled process left in `dir`. */
export function profileIn(dir: string): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}`);
  return path.join(dir, files.sort().at(-1)!);
}
