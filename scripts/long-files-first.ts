import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/*
 * Browser test files that take minutes, longest first whatever the machine: every main screen at two widths,
 * and real idle timeouts waited out. Started last, one of them runs alone at the end while the
 * other worker has nothing left to do (50 s of a CI pass measured); started first, the short
 * files fill in beside them.
 */
const LONG_FILES = [
  'e2e/layout.test.ts',
  'e2e/idle-warning.test.ts',
  'e2e/verification.test.ts',
  'e2e/first-run.test.ts',
];

/**
 * Vitest's order within each project, except that on a run with no timings of an earlier one (a
 * fresh checkout, as in CI) the files known to be long start first in their project. Then the
 * browser files are spread evenly among the server files: a browser step mostly waits on the
 * page while a server file keeps a core busy, so the two kinds share the workers best side by
 * side, not one project after the other.
 */
export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const path = (spec: TestSpecification) => relative(root, spec.moduleId);
    const timed = (spec: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${path(spec)}`) !== undefined;
    // The longest first, then every other file in Vitest's order.
    const rank = (spec: TestSpecification) => {
      const i = LONG_FILES.indexOf(path(spec));
      return i >= 0 && !timed(spec) ? i : LONG_FILES.length;
    };
    const place = new Map(sorted.map((spec, i) => [spec, i]));
    const inOrder = (project: string) =>
      sorted
        .filter((spec) => spec.project.name === project)
        .sort((a, b) => rank(a) - rank(b) || place.get(a)! - place.get(b)!);
    const browser = inOrder('e2e');
    const server = inOrder('server');
    const others = sorted.filter((spec) => !['e2e', 'server'].includes(spec.project.name));
    return [...others, ...spread(browser, server)];
  }
}

/** Every item of `few`, each followed by its share of `many`, in their own orders. */
export function spread<T>(few: T[], many: T[]): T[] {
  const out: T[] = [];
  few.forEach((item, i) => {
    out.push(item);
    const from = Math.round((i * many.length) / few.length);
    const to = Math.round(((i + 1) * many.length) / few.length);
    out.push(...many.slice(from, to));
  });
  return few.length === 0 ? [...many] : out;
}
