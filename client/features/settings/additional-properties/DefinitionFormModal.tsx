import { Form, Input, Select, Switch } from 'antd';
import {
  PROPERTY_KINDS,
  type PropertyTarget,
  type TCreatePropertyDefinition,
  type TPropertyDefinition,
} from '#core/schemas/additional-properties.schemas.ts';
import { MEASURES } from '#core/units/measures.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { showSaved } from '../save-feedback.ts';
import {
  useChangeDefinition,
  type DefinitionEdit,
} from '#client/shared/settings/property-definitions-api.ts';

interface DefinitionFormValues {
  key?: string;
  label: string;
  kind: TCreatePropertyDefinition['kind'];
  measure?: TCreatePropertyDefinition['measure'];
  options?: string[];
  required?: boolean;
  helpText?: string;
  reason?: string;
}

const KIND_LABELS: Record<TCreatePropertyDefinition['kind'], string> = {
  text: 'Text',
  number: 'Number',
  quantity: 'Quantity with a unit',
  date: 'Date',
  select: 'Choice from a list',
};

const measureOptions = Object.entries(MEASURES).map(([value, measure]) => ({
  value,
  label: `${measure.label} (${measure.allowed.join(', ')})`,
}));

interface DefinitionFormModalProps {
  target: PropertyTarget;
  /** The definition to edit, or null to define a new one. */
  definition: TPropertyDefinition | null;
  onClose: () => void;
}

/** Define a property, or edit one (key, kind and measure stay once values may exist). */
export function DefinitionFormModal({ target, definition, onClose }: DefinitionFormModalProps) {
  const [form] = Form.useForm<DefinitionFormValues>();
  const change = useChangeDefinition(target);
  const kind = Form.useWatch('kind', form) ?? definition?.kind ?? 'text';
  const isEdit = definition !== null;

  async function save(values: DefinitionFormValues): Promise<void> {
    const helpText = values.helpText?.trim() ?? '';
    if (definition) {
      const body: DefinitionEdit = {
        label: values.label,
        required: values.required ?? false,
        helpText,
        ...(definition.kind === 'select' ? { options: values.options ?? [] } : {}),
      };
      await change.mutateAsync({
        type: 'edit',
        key: definition.key,
        body,
        reason: values.reason ?? '',
        version: definition.version,
      });
    } else {
      await change.mutateAsync({
        type: 'create',
        body: {
          ...(values.key?.trim() ? { key: values.key.trim() } : {}),
          label: values.label,
          kind: values.kind,
          ...(values.kind === 'quantity' ? { measure: values.measure } : {}),
          ...(values.kind === 'select' ? { options: values.options ?? [] } : {}),
          required: values.required ?? false,
          ...(helpText ? { helpText } : {}),
        },
      });
    }
    showSaved(`Property '${values.label}'`);
  }

  return (
    <ReasonDialog<DefinitionFormValues>
      form={form}
      name="property-definition-form"
      title={isEdit ? `Edit property '${definition.label}'` : 'Add property'}
      okText={isEdit ? 'Save' : 'Add property'}
      askReason={isEdit}
      initialValues={{
        key: definition?.key,
        label: definition?.label,
        kind: definition?.kind ?? 'text',
        measure: definition?.measure ?? undefined,
        options: definition?.options ?? [],
        required: definition?.required ?? false,
        helpText: definition?.helpText ?? '',
      }}
      onSubmit={save}
      onClose={onClose}
    >
      <Form.Item
        name="label"
        label="Label"
        rules={[{ required: true, whitespace: true, message: 'A label is required' }]}
      >
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item
        name="key"
        label="Key"
        tooltip="Values are stored under this key; it never changes. Made from the label when left empty."
      >
        <Input maxLength={60} disabled={isEdit} placeholder="made from the label" />
      </Form.Item>
      <Form.Item name="kind" label="Kind">
        <Select
          disabled={isEdit}
          options={PROPERTY_KINDS.map((value) => ({ value, label: KIND_LABELS[value] }))}
        />
      </Form.Item>
      {kind === 'quantity' ? (
        <Form.Item
          name="measure"
          label="Measure"
          rules={[{ required: true, message: 'A quantity needs a measure' }]}
        >
          <Select
            disabled={isEdit}
            options={measureOptions}
            showSearch={{ optionFilterProp: 'label' }}
          />
        </Form.Item>
      ) : null}
      {kind === 'select' ? (
        <Form.Item
          name="options"
          label="Options"
          rules={[{ required: true, message: 'A select needs options' }]}
        >
          <Select mode="tags" open={false} tokenSeparators={[',']} />
        </Form.Item>
      ) : null}
      <Form.Item name="required" label="Required" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="helpText" label="Help text">
        <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={500} />
      </Form.Item>
    </ReasonDialog>
  );
}
