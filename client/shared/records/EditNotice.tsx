import { Alert } from 'antd';
import type {
  TControlledDocumentType,
  TControlledState,
} from '#core/schemas/signatures.schemas.ts';
import { useRoles } from '../roles/roles-api.ts';
import { editNotice, requiredSignatures } from './record-actions.ts';
import { useApprovalPolicy } from './records-api.ts';
import { NAME_PENDING } from '../display-labels.ts';

/**
 * What an edit of a controlled record does, said before the user saves: an Approved record gets
 * version N+1 in Being Built (and which signatures it will need); one under review is locked.
 */
export function EditNotice(props: {
  documentType: TControlledDocumentType;
  state: Pick<TControlledState, 'status' | 'versionNumber'>;
}) {
  const notice = editNotice(props.state);
  const policy = useApprovalPolicy(props.documentType, notice?.kind === 'newVersion');
  const roles = useRoles(false);
  if (!notice) return null;
  if (notice.kind === 'locked') {
    return (
      <Alert
        type="warning"
        showIcon
        title={notice.title}
        description={notice.message}
        style={{ marginBottom: 16 }}
      />
    );
  }
  const roleName = (id: number) => roles.data?.find((role) => role.id === id)?.name ?? NAME_PENDING;
  const needed = policy.data
    ? `It will then need ${requiredSignatures(policy.data.steps, roleName)}${policy.data.allowSelfApproval ? '' : ', each signer different from the others'}.`
    : '';
  return (
    <Alert
      type="info"
      showIcon
      title={notice.title}
      description={`${notice.message} ${needed}`.trim()}
      style={{ marginBottom: 16 }}
    />
  );
}
