import { expect } from 'vitest';
import type { TestBody } from './facility-test-file.ts';
import type { Signer } from './policy-in-force.ts';

/** A call below one facility's path (`{F}`), as the given session or the test's own. */
type FacilityCall = (
  method: string,
  path: string,
  body?: unknown,
  as?: string,
) => Promise<{ status: number; body: TestBody }>;

const CA = '/change-assessments';

/** What tests do with a facility's change assessments besides the call under test. */
export function changeAssessmentKit(call: FacilityCall) {
  return {
    /** Signs the assessment (POST signatures) as `as`, with a reason for a rejection. */
    sign: (id: number, action: string, as: Signer, reason?: string) =>
      call(
        'POST',
        '/signatures',
        { documentType: 'ChangeAssessment', documentId: id, action, password: as.password, reason },
        as.token,
      ),
    /** Decides every impact item of the evaluation ('verification', justified), as submit needs. */
    async decideAll(ca: TestBody): Promise<TestBody> {
      const impact = await call('GET', `${CA}/${ca.id}/impact?pageLimit=1000`);
      expect(impact.status).toBe(200);
      if (impact.body.items.length === 0) return ca;
      const res = await call('POST', `${CA}/${ca.id}/decisions`, {
        version: ca.version,
        decisions: (impact.body.items as TestBody[]).map((i) => ({
          key: i.key,
          decision: 'verification',
          justification: 'Verify on the next batch',
        })),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.changeAssessment as TestBody;
    },
  };
}
