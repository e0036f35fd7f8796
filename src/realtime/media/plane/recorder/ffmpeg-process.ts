// One ffmpeg process and everything it holds: its pipes, its exit, the last lines it wrote to
// stderr (the reason given when it fails). Its owner writes to its input with `write` (which waits
// while the pipe is full, so a slow encoder slows the writer rather than growing memory), ends the
// input with `end`, and reads its output through `onData`. `kill` ends it at once; a process that
// exits by itself is reported through `exited`.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/** How much of its stderr is kept for a failure's reason. */
const STDERR_TAIL_BYTES = 2048;

export interface FfmpegExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The end of what it wrote to stderr, trimmed. */
  stderr: string;
}

/** Every ffmpeg process running now, so that the plane's own exit takes them with it. */
const running = new Set<FfmpegProcess>();

/** Kills every ffmpeg process of this process (the plane ends, or the emulator stops). */
export function killAllFfmpeg(): void {
  for (const p of [...running]) p.kill();
}

export class FfmpegProcess {
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private stderr = '';
  private ended = false;
  private failedWrite: Error | undefined;
  /** The wait for the input pipe's room, while it is full. */
  private roomAgain: Promise<boolean> | undefined;
  readonly exited: Promise<FfmpegExit>;

  constructor(ffmpeg: string, args: readonly string[]) {
    this.child = spawn(ffmpeg, ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    running.add(this);
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text: string) => {
      this.stderr = (this.stderr + text).slice(-STDERR_TAIL_BYTES);
    });
    // A write to a process that died is reported by `write` and the exit, not as an uncaught error.
    this.child.stdin.on('error', (err) => (this.failedWrite = err));
    this.exited = new Promise((resolve) => {
      let spawnError: Error | undefined;
      this.child.on('error', (err) => (spawnError = err));
      this.child.on('close', (code, signal) => {
        running.delete(this);
        resolve({ code, signal, stderr: (spawnError ? `${spawnError.message}\n` : '') + this.stderr.trim() });
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Reads its standard output. */
  onData(listener: (chunk: Buffer) => void): void {
    this.child.stdout.on('data', listener);
  }

  /** Whether its input can take more now without waiting. */
  get writable(): boolean {
    return !this.ended && this.failedWrite === undefined && !this.child.stdin.writableNeedDrain;
  }

  /**
   * Writes to its input; resolves at once, or once the pipe has room again. False once it can take
   * nothing more. Writes made while the pipe is full share one wait for its room (a frame is
   * written in several pieces, and each piece waiting on its own piled listeners on the pipe).
   */
  write(bytes: Buffer): boolean | Promise<boolean> {
    if (this.ended || this.failedWrite || this.child.stdin.destroyed) return false;
    if (this.child.stdin.write(bytes)) return true;
    this.roomAgain ??= new Promise((resolve) => {
      const done = () => {
        this.child.stdin.off('drain', done);
        this.child.stdin.off('close', done);
        this.roomAgain = undefined;
        resolve(!this.failedWrite && !this.ended);
      };
      this.child.stdin.on('drain', done);
      this.child.stdin.on('close', done);
    });
    return this.roomAgain;
  }

  /** Ends its input: it finishes what it has and exits. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.child.stdin.end();
  }

  kill(): void {
    this.ended = true;
    this.child.stdin.destroy();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
