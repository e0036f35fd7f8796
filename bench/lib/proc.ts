// What Linux's /proc tells of a process, for the benchmarks that measure the processes a run starts
// (the media plane, its encoders, Chromium's): CPU time, resident memory, command line, children.
// Each answer is undefined (or empty) once the process is gone.
import { readFileSync, readdirSync } from 'node:fs';

/** The clock ticks a second /proc counts CPU time in (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;
/** The size of a page, in which /proc counts resident memory (4 KiB on the machines this runs on). */
const PAGE_BYTES = 4096;

/** The fields of /proc/<pid>/stat after the command's name (which may hold spaces): state first. */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** CPU seconds a process has used so far, user and system. */
export function cpuSeconds(pid: number | string): number | undefined {
  const f = statFields(pid);
  return f && (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND;
}

/** A process's parent's id. */
export function parentId(pid: number | string): number | undefined {
  const f = statFields(pid);
  return f && Number(f[1]);
}

/** A process's resident memory (MB). */
export function rssMb(pid: number | string): number | undefined {
  const f = statFields(pid);
  return f && (Number(f[21]) * PAGE_BYTES) / 1024 / 1024;
}

/** A process's command line, its arguments joined by spaces ('' once it is gone). */
export function commandLine(pid: number | string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** The ids of the processes running now. */
export function processIds(): string[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d));
}

/** The children of a process (of each of its threads). */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const task of tasks) {
    try {
      out.push(...readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      // gone
    }
  }
  return out;
}
