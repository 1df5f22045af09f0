import type { QualificationCase } from '#core/qualification/cases.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  ZInstallation,
  ZQualificationAnswers,
  ZQualificationAnswersBody,
} from '#core/schemas/qualification.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { installationReport } from './installation.ts';
import { useInstanceConfig } from './instance-config.ts';
import { instanceAnswers } from './qualification-run.ts';

const base = '/api/v2/plans/:plan/facilities/:facility/qualification';
const tags = ['qualification'];

/*
 * The running instance's side of the qualification pack (README.md here): what is installed,
 * and its engine's answers to the cases, which the pack holds against the expectations. Both
 * read and change nothing; generating the pack is a report permission.
 */
export function registerQualificationRoutes({ app, db, config, permit }: AppContext): void {
  useInstanceConfig(config);
  const r = typed(app);

  r.get(
    `${base}/installation`,
    {
      preHandler: permit('ReportDocument', 'Generate'),
      schema: {
        tags,
        summary: 'The installation as this instance runs it',
        description:
          'Application version and git commit (when known), Node and database versions, every migration with its SHA-256 (migrations.sha256) and whether it is applied, the configuration with secrets masked, and every dependency of package-lock.json with its integrity hash. `problems` lists where the migrations and their checksums disagree.',
        params: ZFacilityParams,
        response: { 200: ZInstallation },
      },
    },
    () => installationReport(db, config),
  );

  r.post(
    `${base}/answers`,
    {
      preHandler: permit('ReportDocument', 'Generate'),
      schema: {
        tags,
        summary: "This instance's engine answers qualification cases",
        description:
          'For each case, in order: a worked example computed as the engine computes it, or a limits-contract case as `{ exitCode: 0, document }` or `{ exitCode: 2, errorProperties }`; `{ error }` for a case it cannot compute. The caller judges the answers.',
        params: ZFacilityParams,
        body: ZQualificationAnswersBody,
        response: { 200: ZQualificationAnswers },
      },
    },
    (request) => ({
      answers: instanceAnswers(request.body.cases as unknown as QualificationCase[]),
    }),
  );
}
