import type { NetworkNamespace } from './netns.js';

/**
 * dcmtk's query/retrieve clients (findscu, movescu, getscu) run inside a private network namespace
 * against our listener exposed there, as the PACS tests run Orthanc. Each answers its exit code and
 * everything it printed (stdout and stderr, NUL bytes removed), at debug level so every response's
 * status and identifier are in it.
 */
export interface DcmtkRun {
  code: number;
  output: string;
}

export async function dcmtk(ns: NetworkNamespace, command: string, args: string[]): Promise<DcmtkRun> {
  const script = `TCP_NODELAY=1 ${command} "$@" 2>&1; echo "exit=$?"`;
  const out = await ns.run('sh', ['-c', script, command, ...args]);
  const clean = out.replace(/\0/g, '');
  const match = /exit=(\d+)\s*$/.exec(clean);
  return { code: match ? Number(match[1]) : -1, output: clean };
}

/** `-k` arguments from a key map (`''`: a return key). */
export function keyArgs(keys: Record<string, string>): string[] {
  return Object.entries(keys).flatMap(([k, v]) => ['-k', v === '' ? k : `${k}=${v}`]);
}

/** The values of one attribute in every response dataset findscu printed, e.g. `(0020,000d)`. */
export function valuesOf(output: string, tag: string): string[] {
  const values: string[] = [];
  const pattern = new RegExp(
    `\\(${tag.replace(/[()]/g, '').replace(',', ',')}\\)\\s+\\w\\w\\s+(?:\\[([^\\]]*)\\]|\\(no value available\\))`,
    'gi',
  );
  // The request identifier is printed first: responses start at the first "Response".
  const responses = output.slice(Math.max(0, output.search(/Find Response|C-FIND-RSP|Received .*Response/)));
  for (const line of responses.split('\n')) {
    if (!line.includes('# ')) continue;
    pattern.lastIndex = 0;
    const m = pattern.exec(line);
    if (m) values.push((m[1] ?? '').trim());
  }
  return values;
}
