import type { PropertyError } from '../errors/errors.ts';
import type { TInspectionSettings } from '../schemas/facility-rules.schemas.ts';
import type { TChecklistAnswer } from '../schemas/run-inspection.schemas.ts';

/*
 * The rules a visual inspection is recorded under (core/verification/README.md "Visual
 * inspection"), against the cleaning inspection settings the run pinned. Pure, so the run screen
 * shows the same problems before it saves as the server answers.
 */

export interface InspectionAnswers {
  lightLux: number | null | undefined;
  checklist: readonly ({ answer?: TChecklistAnswer | null } | null | undefined)[];
  result: 'Pass' | 'Fail' | null | undefined;
  notes?: string | null | undefined;
  evidenceReference?: string | null | undefined;
}

const problem = (property: string, rule: string, message: string): PropertyError => ({
  property,
  constraints: { [rule]: message },
});

/** Every problem of an inspection at once, each on its field. */
export function inspectionProblems(
  settings: TInspectionSettings,
  input: InspectionAnswers,
): PropertyError[] {
  const problems: PropertyError[] = [];
  const items = settings.checklist;
  if (input.checklist.length !== items.length)
    problems.push(
      problem('checklist', 'length', `Answer each of the ${items.length} checklist items`),
    );
  items.forEach((item, index) => {
    const answer = input.checklist[index]?.answer;
    const property = `checklist[${index}].answer`;
    if (!answer) {
      if (input.checklist.length === items.length)
        problems.push(problem(property, 'required', 'Answer Pass, Fail or N/A'));
    } else if (item.isMandatory && answer === 'N/A') {
      problems.push(problem(property, 'mandatory', 'A mandatory item cannot be N/A'));
    } else if (item.isMandatory && answer === 'Fail' && input.result === 'Pass') {
      problems.push(
        problem(property, 'failedMandatory', 'A mandatory item failed: the inspection cannot pass'),
      );
    }
  });
  // Too little light hides residue: a Pass seen in it proves nothing, a Fail seen in it stands.
  if (
    input.result === 'Pass' &&
    typeof input.lightLux === 'number' &&
    input.lightLux < settings.minimumLightLux
  )
    problems.push(
      problem(
        'lightLux',
        'minimumLight',
        `${input.lightLux} lux is below the minimum of ${settings.minimumLightLux} lux: a Pass needs enough light to see residue; raise the light and inspect again`,
      ),
    );
  if (input.result === 'Fail' && !input.notes?.trim())
    problems.push(
      problem('notes', 'required', 'A failed inspection needs notes: what was found and where'),
    );
  if (settings.requirePhotoEvidence && !input.evidenceReference?.trim())
    problems.push(
      problem(
        'evidenceReference',
        'required',
        'Photo evidence is required by the cleaning inspection settings: give its reference',
      ),
    );
  return problems;
}
