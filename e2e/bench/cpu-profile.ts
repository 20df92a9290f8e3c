/** The parts of a V8 CPU profile (CDP `Profiler.stop`, `node --cpu-prof`) the summary reads. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * The functions that used the most CPU themselves (self time, ms), heaviest first, named
 * `function file:line`. Idle, program and GC are kept: a busy GC is a finding too.
 */
export function topSelfTime(profile: CpuProfile, count = 15): Array<{ fn: string; ms: number }> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i]!);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.split('/').pop() ?? '';
    const fn = `${functionName || '(anonymous)'} ${file}${file ? `:${lineNumber + 1}` : ''}`.trim();
    // A sample's delta is the time since the previous one: charge it to this sample's function.
    self.set(fn, (self.get(fn) ?? 0) + (deltas[i] ?? 0) / 1000);
  }
  return [...self.entries()]
    .map(([fn, ms]) => ({ fn, ms: Math.round(ms) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
}
