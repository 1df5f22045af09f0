import { z } from 'zod';

/*
 * The qualification calls (server/modules/qualification/README.md): the installation as the
 * running instance sees it, and the instance's answers to the qualification's cases.
 */

const ZTrace = z.object({ requirement: z.string().max(2000), guideline: z.string().max(4000) });

/** A case as the pack sends it; its content is checked by the engine that answers it. */
export const ZQualificationCase = z
  .object({
    set: z.enum(['worked', 'contract', 'own', 'site']),
    id: z.string().min(1).max(200),
    title: z.string().max(2000),
    trace: ZTrace,
    worked: z.record(z.string(), z.unknown()).optional(),
    contract: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((c) => (c.worked === undefined) !== (c.contract === undefined), {
    message: 'must carry either a worked example or a contract case',
    path: ['contract'],
  });

export const ZQualificationAnswersBody = z.object({
  cases: z.array(ZQualificationCase).min(1).max(2000),
});

export const ZQualificationAnswers = z.object({
  /** In the order of the cases: the engine's answer, or `{ error }` for a case it cannot compute. */
  answers: z.array(z.record(z.string(), z.unknown())),
});

export const ZInstallation = z.object({
  application: z.object({ name: z.string(), version: z.string(), commit: z.string().nullable() }),
  node: z.string(),
  database: z.object({ kind: z.string(), version: z.string() }),
  migrations: z.array(
    z.object({ name: z.string(), sha256: z.string().nullable(), applied: z.boolean() }),
  ),
  configuration: z.array(z.object({ name: z.string(), value: z.string() })),
  dependencies: z.array(
    z.object({
      name: z.string(),
      version: z.string(),
      integrity: z.string().nullable(),
      dev: z.boolean(),
    }),
  ),
  problems: z.array(z.string()),
});
