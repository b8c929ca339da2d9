// axe-core run inside a page, for the accessibility spec. The script goes in through the DevTools
// protocol's evaluate, which the page's Content-Security-Policy does not govern (the web app and the
// extension's pages allow only their own scripts), so the page is checked as it ships.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  /** The offending elements' selectors and axe's one-line reason for each. */
  nodes: string[];
}

/**
 * The serious and critical axe-core violations of WCAG 2.x A/AA and best-practice rules on what
 * `page` shows now (or inside `within`, a selector). Minor and moderate findings are left out: the
 * quality bar is about the ones that stop someone from using the page.
 */
export async function seriousViolations(page: Page, within?: string): Promise<AxeFinding[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    async ({ context }) => {
      const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[] }> } }).axe;
      const r = await axe.run(context ?? document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] }, resultTypes: ['violations'] });
      return r.violations.map((v) => ({
        rule: v.id,
        impact: v.impact ?? 'unknown',
        help: v.help,
        nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200)}`),
      }));
    },
    { context: within ?? null },
  );
  return results.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** One line per finding, for a failing expectation's message. */
export function describeFindings(findings: AxeFinding[]): string {
  return findings.map((f) => `${f.impact} ${f.rule} (${f.help}):\n    ${f.nodes.slice(0, 6).join('\n    ')}${f.nodes.length > 6 ? `\n    … ${f.nodes.length - 6} more` : ''}`).join('\n');
}
