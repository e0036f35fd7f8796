// Finding a program the emulator runs (ffmpeg) without running it: the path given, or the first
// executable of that name on PATH. A look at a few directories, so start-up pays almost nothing.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** The program's path, or the reason it cannot be used. */
export type Located = { path: string } | { missing: string };

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `given` when it is an executable file (a bare name is looked up on PATH), else `name` on PATH. */
export function locateExecutable(name: string, given: string | undefined, env: NodeJS.ProcessEnv = process.env): Located {
  const wanted = given ?? name;
  if (wanted.includes('/') || wanted.includes(path.sep)) {
    const file = path.resolve(wanted);
    return executable(file) ? { path: file } : { missing: `${file} is not an executable file` };
  }
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const file = path.join(dir, wanted + ext);
      if (executable(file)) return { path: file };
    }
  }
  return { missing: `${wanted} was not found on PATH` };
}
