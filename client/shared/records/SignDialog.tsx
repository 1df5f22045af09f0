import { Form, Input, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type {
  TControlledDocumentType,
  TSignAction,
  TSignResponse,
} from '#core/schemas/signatures.schemas.ts';
import { ACTION_LABELS } from '#core/records/status-labels.ts';
import { meaningOf } from '#core/schemas/signatures.schemas.ts';
import { ReasonDialog } from '../reason/ReasonDialog.tsx';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { SignerProofField, signerProofOf, type SignerProofValues } from './SignerProofField.tsx';
import { recordsKeys, signRecord } from './records-api.ts';
import { dashboardKeys } from '../query-keys.ts';

interface SignValues extends SignerProofValues {
  /** Shown, never typed: each action has its fixed meaning (meaningOf). */
  meaning: string;
  reason?: string;
}

export interface SignTarget {
  documentType: TControlledDocumentType;
  documentId: number;
  /** How the record is named in the dialog ('SOP-001 Cleaning of mixers, version 2'). */
  title: string;
  action: TSignAction;
}

interface SignDialogProps {
  target: SignTarget;
  onSigned: (response: TSignResponse) => void;
  onClose: () => void;
  /** A refusal of the signature (a 409 naming what is missing), for the screen to place it. */
  onRefused?: (error: unknown) => void;
}

/**
 * The one electronic signature dialog (21 CFR Part 11 §11.200): the signer re-authenticates
 * for every signature (password, or a fresh single sign-on) and states its meaning; a rejection
 * says why. A wrong password shows on the password field.
 */
export function SignDialog({ target, onSigned, onClose, onRefused }: SignDialogProps) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SignValues>();
  const isReject = target.action === 'Reject';

  async function sign(values: SignValues): Promise<void> {
    const response = await signRecord(scope, {
      documentType: target.documentType,
      documentId: target.documentId,
      action: target.action,
      ...signerProofOf(values),
      meaning: meaningOf(target.documentType, target.action),
      ...(isReject && values.reason ? { reason: values.reason } : {}),
    }).catch((error: unknown) => {
      onRefused?.(error);
      throw error;
    });
    void queryClient.invalidateQueries({
      queryKey: recordsKeys.signatures(scope.facilityId, target.documentType, target.documentId),
    });
    void queryClient.invalidateQueries({ queryKey: recordsKeys.pending(scope.facilityId) });
    // The dashboard counts what waits for signatures and reads approved records' flags.
    void queryClient.invalidateQueries({ queryKey: dashboardKeys.all(scope.facilityId) });
    onSigned(response);
  }

  return (
    <ReasonDialog<SignValues>
      form={form}
      name="sign-form"
      title={`${ACTION_LABELS[target.action]}: ${target.title}`}
      okText={`Sign and ${ACTION_LABELS[target.action].toLowerCase()}`}
      initialValues={{ meaning: meaningOf(target.documentType, target.action) }}
      askReason={isReject}
      onSubmit={sign}
      onClose={onClose}
    >
      <Typography.Paragraph type="secondary">
        Your electronic signature is the legally binding equivalent of your handwritten signature.
        Your name, the time and the meaning are recorded with the signature.
      </Typography.Paragraph>
      <Form.Item label="Meaning" name="meaning" extra="Fixed for this action">
        <Input readOnly />
      </Form.Item>
      <SignerProofField />
    </ReasonDialog>
  );
}
