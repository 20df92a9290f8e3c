import fs from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, ms) used so far by the process or thread whose stat file this is
 * (`/proc/PID/stat`, `/proc/self/task/TID/stat`); Linux only.
 */
export function cpuMsOf(statFile: string): number {
  const stat = fs.readFileSync(statFile, 'utf8');
  // Fields after the parenthesised command name; utime and stime are the 12th and 13th of them.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** utime, stime, cutime, cstime of a `/proc/PID/stat` file, in ms. */
function timesOf(statFile: string): [number, number, number, number] {
  const stat = fs.readFileSync(statFile, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ms = (i: number) => (Number(fields[i]) * 1000) / TICKS_PER_SECOND;
  return [ms(11), ms(12), ms(13), ms(14)];
}

/**
 * CPU time (ms) of a process and all its children, live or exited: its own time, the time of the
 * children it has reaped (cutime, cstime), and that of each live child (and theirs). The
 * difference between two readings is what the tree spent between them, connections that closed
 * meanwhile included (PostgreSQL's postmaster reaps its backends). 0 once the process is gone.
 */
export function treeCpuMs(pid: number): number {
  let times: [number, number, number, number];
  try {
    times = timesOf(`/proc/${pid}/stat`);
  } catch {
    return 0;
  }
  let children: string[] = [];
  try {
    children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean);
  } catch {
    // Gone meanwhile: its own reading stands.
  }
  return (
    times.reduce((a, b) => a + b, 0) + children.reduce((sum, child) => sum + treeCpuMs(Number(child)), 0)
  );
}
