import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// The WCAG 2.1 AA rules; axe's best practices are advice and stay out of the check.
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = ['serious', 'critical'];

const axeSource = (): string =>
  (createRequire(import.meta.url)('axe-core') as { source: string }).source;

interface Violation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[]; html: string; failureSummary?: string }[];
}

/** What axe says is wrong with an element: its first reason, e.g. the contrast it measured. */
const reason = (summary = ''): string => summary.split('\n')[1]?.trim() ?? '';

/**
 * The page's serious and critical WCAG 2.1 AA violations found by axe-core, one line per rule
 * and one per element it names, so a failure reads as a list of what to fix.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource());
  const violations = await page.evaluate(async (tags) => {
    const { axe } = window as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } };
    const result = (await axe.run(document, { runOnly: { type: 'tag', values: tags } })) as {
      violations: Violation[];
    };
    return result.violations;
  }, WCAG_21_AA);
  return violations
    .filter((v) => BLOCKING.includes(v.impact ?? ''))
    .map((v) =>
      [
        `${v.impact} ${v.id}: ${v.help}`,
        ...v.nodes.map((n) => `  ${n.target.join(' ')}: ${reason(n.failureSummary)}`),
      ].join('\n'),
    );
}

/** Fails with the list of serious and critical violations when the page has any. */
export async function expectAccessible(page: Page): Promise<void> {
  const violations = await seriousViolations(page);
  if (violations.length > 0) {
    throw new Error(
      `axe found ${violations.length} serious or critical WCAG 2.1 AA violation(s) on ${page.url()}:\n${violations.join('\n')}`,
    );
  }
}
