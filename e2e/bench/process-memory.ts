import { readdir, readFile } from 'node:fs/promises';

/** A process as /proc shows it: its parent, resident memory now, its peak, and CPU time used. */
export interface ProcStat {
  pid: number;
  ppid: number;
  cmdline: string;
  rssBytes: number;
  peakRssBytes: number;
  cpuMs: number;
}

const TICKS_PER_SECOND = 100;

async function statOf(pid: number): Promise<ProcStat | null> {
  try {
    const [stat, status, cmdline] = await Promise.all([
      readFile(`/proc/${pid}/stat`, 'utf8'),
      readFile(`/proc/${pid}/status`, 'utf8'),
      readFile(`/proc/${pid}/cmdline`, 'utf8'),
    ]);
    // The command name in parentheses may hold spaces: the fields that follow start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const kb = (name: string) =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return {
      pid,
      ppid: Number(fields[1]),
      cmdline: cmdline.replaceAll('\0', ' '),
      rssBytes: kb('VmRSS'),
      peakRssBytes: kb('VmHWM'),
      cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND,
    };
  } catch {
    return null; // gone between the listing and the read
  }
}

/** CPU time (user + system, ms) a process has used so far. */
export async function cpuMsOf(pid: number): Promise<number> {
  return (await statOf(pid))?.cpuMs ?? 0;
}

/** Every process below `root` (children, grandchildren…), read from /proc (Linux only). */
export async function descendants(root: number): Promise<ProcStat[]> {
  const pids = (await readdir('/proc')).filter((n) => /^\d+$/.test(n)).map(Number);
  const all = (await Promise.all(pids.map(statOf))).filter((p): p is ProcStat => p !== null);
  const below = new Set([root]);
  // Parents come before children in pid order almost always, but not after pid wrap: repeat until stable.
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) {
      if (!below.has(p.pid) && below.has(p.ppid)) {
        below.add(p.pid);
        grew = true;
      }
    }
  }
  return all.filter((p) => p.pid !== root && below.has(p.pid));
}

/** Chromium's renderer processes started by this test process (the page and its worker live there). */
export async function chromiumRenderers(): Promise<ProcStat[]> {
  return (await descendants(process.pid)).filter((p) => p.cmdline.includes('--type=renderer'));
}
