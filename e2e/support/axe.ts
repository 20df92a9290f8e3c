import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** The impacts axe gives a violation, worst first. */
export const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;
export type Impact = (typeof IMPACTS)[number];

/** One rule a screen breaks: its id, its impact, what it asks for and the first elements that break it. */
export interface Violation {
  id: string;
  impact: Impact;
  help: string;
  targets: string[];
}

/** What axe found on one screen. */
export interface ScreenReport {
  where: string;
  violations: Violation[];
}

interface AxeResult {
  violations: {
    id: string;
    impact?: string | null;
    help: string;
    nodes: { target: unknown[]; html: string }[];
  }[];
}

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA, and axe's best practices) on the page as it stands.
 * `@axe-core/playwright` needs Node 22, so axe's own source is evaluated in the page; evaluating
 * through the DevTools protocol is not a script load, so the page's Content-Security-Policy allows it.
 * Frames (the viewer) are left out: they are pages of their own.
 */
export async function runAxe(page: Page, where: string): Promise<ScreenReport> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const result = await page.evaluate<AxeResult>(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, {
      iframes: false,
      resultTypes: ['violations'],
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    }),
  );
  return {
    where,
    violations: result.violations.map((v) => ({
      id: v.id,
      impact: (v.impact ?? 'minor') as Impact,
      help: v.help,
      targets: v.nodes.slice(0, 3).map((n) => `${n.target.map(String).join(' ')} ${n.html.slice(0, 160)}`),
    })),
  };
}

/** The violations of impact serious or critical, one line each, for a failing assertion. */
export function blocking(reports: ScreenReport[]): string[] {
  return reports.flatMap((r) =>
    r.violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => `${r.where}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(' | ')}`),
  );
}

/** A table of the number of rules broken per screen, by impact, for the run's output. */
export function countsTable(reports: ScreenReport[]): string {
  const rows = reports.map((r) => [
    r.where,
    ...IMPACTS.map((impact) => String(r.violations.filter((v) => v.impact === impact).length)),
  ]);
  const header = ['screen', ...IMPACTS];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  return [line(header), ...rows.map(line)].join('\n');
}
