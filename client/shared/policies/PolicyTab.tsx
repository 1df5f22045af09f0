import { useQueryClient } from '@tanstack/react-query';
import { invalidateMasterData } from '../query-keys.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { PolicyFieldsForm } from './PolicyFieldsForm.tsx';
import { loadPolicy, rulesKeys, savePolicy } from './rules-api.ts';
import type { PolicyFields, ResidueType } from './rules-api.ts';
import { VersionedDocumentForm } from './VersionedDocumentForm.tsx';
import type { DocumentFormTarget } from './VersionedDocumentForm.tsx';

/** The cleaning limit policy of one residue type; with a target, an edit is staged instead. */
export function PolicyTab({
  residueType,
  canEdit,
  target,
}: {
  residueType: ResidueType;
  canEdit: boolean;
  target?: DocumentFormTarget<PolicyFields>;
}) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const isIntermediate = residueType === 'Intermediate';
  return (
    <VersionedDocumentForm<PolicyFields>
      name={`${residueType} policy`}
      queryKey={rulesKeys.policy(scope.facilityId, residueType)}
      load={(signal) => loadPolicy(scope, residueType, signal)}
      save={(changes, version, reason) => savePolicy(scope, residueType, changes, version, reason)}
      canEdit={canEdit}
      // The server fixes the Intermediate safety factor at 1000 and refuses another value.
      fixed={isIntermediate ? ['safetyFactor'] : []}
      {...(target ? { target } : {})}
      // Limits are computed with the policies (the MAC matrix with the Chemical one).
      onSaved={() => void invalidateMasterData(queryClient, scope.facilityId)}
    >
      {() => <PolicyFieldsForm isIntermediate={isIntermediate} />}
    </VersionedDocumentForm>
  );
}
