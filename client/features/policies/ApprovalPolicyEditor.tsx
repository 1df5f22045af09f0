import { documentTypeLabel } from '#core/labels/enum-labels.ts';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Form, InputNumber, Select, Space, Spin, Switch, message } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  CONTROLLED_DOCUMENT_TYPES,
  type TApprovalPolicyBody,
  type TApprovalStep,
  type TControlledDocumentType,
} from '#core/schemas/signatures.schemas.ts';
import { showSaveError } from '#client/api/form-errors.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import {
  recordsKeys,
  saveApprovalPolicy,
  useApprovalPolicy,
} from '#client/shared/records/records-api.ts';
import { useRoles } from '#client/shared/roles/roles-api.ts';
import { newStep, renumberSteps, stepsProblem } from './approval-steps.ts';
import { validatedValues } from '#client/shared/validated-values.ts';
import { useEditBase } from '#client/shared/use-edit-base.ts';

interface PolicyValues {
  steps: TApprovalStep[];
  allowSelfApproval: boolean;
}

/** The approval policy of one document type: its steps, their signers, and self-approval. */
export function ApprovalPolicyEditor({ canEdit }: { canEdit: boolean }) {
  const [documentType, setDocumentType] = useState<TControlledDocumentType>('SOP');
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Select
        aria-label="Document type"
        style={{ minWidth: 260 }}
        value={documentType}
        onChange={setDocumentType}
        options={CONTROLLED_DOCUMENT_TYPES.map((value) => ({
          value,
          label: documentTypeLabel(value),
        }))}
      />
      {/* A new document type is a new form, loaded afresh. */}
      <PolicyForm key={documentType} documentType={documentType} canEdit={canEdit} />
    </Space>
  );
}

function PolicyForm(props: { documentType: TControlledDocumentType; canEdit: boolean }) {
  const policy = useApprovalPolicy(props.documentType);
  if (policy.isError) return <Alert type="error" showIcon title={policy.error.message} />;
  if (policy.isPending) return <Spin />;
  return <LoadedPolicyForm {...props} policy={policy.data} />;
}

function LoadedPolicyForm(props: {
  documentType: TControlledDocumentType;
  canEdit: boolean;
  policy: TApprovalPolicyBody;
}) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const roles = useRoles(false);
  const [form] = Form.useForm<PolicyValues>();
  const [asking, setAsking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // The policy's version the form's steps start from: a live update does not move it; the
  // user's own save or a conflict moves it on (the form stays on screen between saves).
  const base = useEditBase(props.policy.version);
  const roleOptions = (roles.data ?? []).map((role) => ({ value: role.id, label: role.name }));

  async function ask(): Promise<void> {
    const values = await validatedValues(form);
    if (!values) return;
    const found = stepsProblem(renumberSteps(values.steps));
    setProblem(found);
    if (!found) setAsking(true);
  }

  async function save(reason: string): Promise<void> {
    const values = form.getFieldsValue(true) as PolicyValues;
    try {
      const saved = await saveApprovalPolicy(scope, {
        documentType: props.documentType,
        steps: renumberSteps(values.steps),
        allowSelfApproval: values.allowSelfApproval,
        reason,
        version: base.version,
      });
      queryClient.setQueryData(
        recordsKeys.approvalPolicy(scope.facilityId, props.documentType),
        saved,
      );
      base.follow();
      setAsking(false);
      void message.success(`Approval policy of ${props.documentType} saved`);
    } catch (error) {
      setAsking(false);
      showSaveError(error, form, () => {
        base.follow();
        void queryClient.invalidateQueries({
          queryKey: recordsKeys.approvalPolicy(scope.facilityId, props.documentType),
        });
      });
    }
  }

  return (
    <Form<PolicyValues>
      form={form}
      name={`approval-policy-${props.documentType}`}
      layout="vertical"
      disabled={!props.canEdit}
      initialValues={{
        steps: props.policy.steps,
        allowSelfApproval: props.policy.allowSelfApproval,
      }}
    >
      <Form.List name="steps">
        {(fields, { add, remove }) => (
          <Space orientation="vertical" style={{ width: '100%' }}>
            {fields.map((field, index) => (
              <Card
                key={field.key}
                size="small"
                title={`Step ${index + 1}`}
                extra={
                  fields.length > 1 ? (
                    <Button
                      size="small"
                      icon={<DeleteOutlined />}
                      aria-label={`Remove step ${index + 1}`}
                      onClick={() => remove(field.name)}
                    />
                  ) : null
                }
              >
                <Space wrap align="start">
                  <Form.Item
                    label="Signer role"
                    name={[field.name, 'signerRole']}
                    rules={[{ required: true }]}
                  >
                    <Select
                      style={{ width: 140 }}
                      options={[{ value: 'Reviewer' }, { value: 'Approver' }]}
                    />
                  </Form.Item>
                  <Form.Item
                    label="Minimum signatures"
                    name={[field.name, 'minSignatures']}
                    rules={[{ required: true }]}
                  >
                    <InputNumber min={1} max={10} precision={0} />
                  </Form.Item>
                  <Form.Item
                    label="Roles that may sign"
                    name={[field.name, 'roleIds']}
                    tooltip="Empty: any role holding ApprovalPolicy Sign in the facility"
                  >
                    <Select
                      mode="multiple"
                      style={{ minWidth: 280 }}
                      placeholder="Any role that may sign"
                      showSearch={{ optionFilterProp: 'label' }}
                      options={roleOptions}
                      loading={roles.isPending}
                    />
                  </Form.Item>
                </Space>
              </Card>
            ))}
            <Button
              icon={<PlusOutlined />}
              onClick={() => add(newStep(form.getFieldValue('steps') ?? []))}
            >
              Add step
            </Button>
          </Space>
        )}
      </Form.List>
      <Form.Item
        style={{ marginTop: 16 }}
        label="Allow self-approval"
        name="allowSelfApproval"
        valuePropName="checked"
        tooltip="Whether one person may sign two steps of the same version (segregation of duties: off)"
      >
        <Switch />
      </Form.Item>
      {problem ? (
        <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />
      ) : null}
      {props.canEdit ? (
        <Button type="primary" onClick={() => void ask()}>
          Save approval policy
        </Button>
      ) : null}
      <ReasonDialog
        open={asking}
        title={`Save the approval policy of ${props.documentType}`}
        okText="Save"
        description="The policy applies to versions submitted after it. Why does it change?"
        managedByCaller
        onSubmit={({ reason }) => save(reason)}
        onClose={() => setAsking(false)}
      />
    </Form>
  );
}
