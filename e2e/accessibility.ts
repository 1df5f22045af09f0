import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// The WCAG 2.1 AA rules; axe's best practices are advice and stay out of the check.
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['serious', 'critical']);

const axeSource = (): string =>
  (createRequire(import.meta.url)('axe-core') as { source: string }).source;

interface Violation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[]; html: string }[];
}

/**
 * The page's serious and critical WCAG 2.1 AA violations found by axe-core, one line per rule
 * with the elements it names, so a failure reads as a list of what to fix.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource());
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, { runOnly: { type: 'tag', values: tags } })) as {
      violations: Violation[];
    };
    return result.violations;
  }, WCAG_21_AA);
  return violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n${v.nodes
          .slice(0, 5)
          .map((n) => `    ${n.target.join(' ')}  ${n.html.slice(0, 160)}`)
          .join('\n')}${v.nodes.length > 5 ? `\n    … and ${v.nodes.length - 5} more` : ''}`,
    );
}
