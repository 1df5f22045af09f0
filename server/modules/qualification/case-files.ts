import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { WorkedCase } from '#core/limits/golden/worked-cases.ts';
import type { ContractCase, QualificationCase } from '#core/qualification/cases.ts';
import { readablePath } from '#core/qualification/readable-path.ts';
import { contractCaseTrace, workedCaseTrace } from '#core/qualification/trace.ts';
import { projectRoot } from '#server/util/project-root.ts';

/*
 * The qualification's cases as the repository keeps them (core/limits/golden: the worked
 * examples and the contract cases copied from shared/golden, and the project's own cases), so a
 * clean checkout qualifies itself; and any case file a site passes in.
 */

const goldenDir = () => join(projectRoot(), 'core/limits/golden');

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

function jsonFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(dir, f));
}

function workedCases(cases: WorkedCase[], set: 'worked' | 'site'): QualificationCase[] {
  return cases.map((c) => ({
    set,
    id: c.id,
    title: c.criterion ?? c.id,
    trace: workedCaseTrace(c),
    worked: c,
  }));
}

function contractCase(file: string, set: 'contract' | 'own' | 'site'): QualificationCase {
  const c = readJson(file) as ContractCase;
  const id = basename(file, '.json');
  const title =
    c.title ??
    (c.exitCode === 0
      ? 'Limits of every pair, product and equipment item'
      : `Input refused at ${c.expectedErrorProperty ? readablePath(c.expectedErrorProperty) : 'its faulty field'}`);
  return { set, id, title, trace: contractCaseTrace(c), contract: c };
}

/**
 * A site's case file: a worked-examples file (`{ cases: [...] }`) or one case of the contract's
 * format. Worked examples a site adds are computed only when the engine knows their id.
 */
function siteCases(file: string): QualificationCase[] {
  const json = readJson(file) as { cases?: WorkedCase[] };
  if (Array.isArray(json.cases)) {
    return workedCases(json.cases, 'site');
  }
  return [contractCase(file, 'site')];
}

export function qualificationCases(extraFiles: string[] = []): QualificationCase[] {
  const dir = goldenDir();
  const worked = readJson(join(dir, 'worked-examples.json')) as { cases: WorkedCase[] };
  return [
    ...workedCases(worked.cases, 'worked'),
    ...jsonFiles(join(dir, 'contract')).map((f) => contractCase(f, 'contract')),
    ...jsonFiles(join(dir, 'own')).map((f) => contractCase(f, 'own')),
    ...extraFiles.flatMap(siteCases),
  ];
}
