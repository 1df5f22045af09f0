import { answerCase, type CaseAnswer, type QualificationCase } from '#core/qualification/cases.ts';
import { assemblePack, type QualificationPack } from '#core/qualification/pack.ts';
import type { Queryable } from '#server/db/db.ts';
import { qualificationCases } from './case-files.ts';
import { installationReport } from './installation.ts';
import { instanceConfig } from './instance-config.ts';

/*
 * The pack as a controlled report makes it (reports/kinds/qualification.ts): the job runs in the
 * instance itself, so its API pass is the instance's answer service (the very function that
 * POST qualification/answers serves), called in process; the command line's pass goes over HTTP.
 */

/** What POST qualification/answers answers: the engine of this instance, case by case. */
export function instanceAnswers(cases: QualificationCase[]): CaseAnswer[] {
  return cases.map(answerCase);
}

export async function runQualification(
  q: Queryable,
  generatedAt: string,
): Promise<QualificationPack> {
  const cases = qualificationCases();
  return assemblePack({
    cases,
    apiAnswers: instanceAnswers(cases),
    installation: await installationReport(q, instanceConfig()),
    instance: "this instance's answer service, called in process by the report job",
    generatedAt,
  });
}
