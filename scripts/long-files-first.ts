import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/*
 * Test files that take minutes, longest first whatever the machine: every main screen at two
 * widths, real idle timeouts waited out, backups restored and compared row by row, every route
 * fuzzed, servers started and killed. Started last, one of them runs alone at the end while the
 * other workers have nothing left to do (50 s of a CI pass measured in the browser files; in the
 * server files backup-cli and data-dir-lock started at 438 s of a 490 s phase); started first,
 * the short files fill in beside them. The browser walk of every screen's words started at 383 s
 * of a 452 s pass, and ended it; the walk of every dialog's lists, before it was listed here, started at
 * 1,280 s of a 1,572 s pass and ran alone for its last four minutes.
 */
const LONG_FILES = [
  'server/db/backup/backup-restore.test.ts',
  'server/http/bad-input.test.ts',
  'server/db/data-dir-lock-race.test.ts',
  'server/main.test.ts',
  'server/cli/backup-cli.test.ts',
  'server/db/data-dir-lock.test.ts',
  'server/db/newer-schema.test.ts',
  'e2e/dialog-selects.test.ts',
  'e2e/words.test.ts',
  'e2e/layout.test.ts',
  'e2e/first-run.test.ts',
  'e2e/idle-warning.test.ts',
  'e2e/verification.test.ts',
  'e2e/change-assessment.test.ts',
];

/**
 * Vitest's order, except that on a run with no timings of an earlier one (a fresh checkout, as
 * in CI) the files known to be long start first in their project. With timings, Vitest already
 * starts the longest first.
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
    // Projects stay in Vitest's order; only the order within a project changes.
    return [...sorted].sort((a, b) =>
      a.project.name === b.project.name
        ? rank(a) - rank(b) || place.get(a)! - place.get(b)!
        : place.get(a)! - place.get(b)!,
    );
  }
}
