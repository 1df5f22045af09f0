import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Drawer, Form, Modal, Space, Spin, Tabs, message } from 'antd';
import { useState } from 'react';
import type { EntityDef } from '#core/entities/entity.ts';
import { isApiError } from '#client/api/api-error.ts';
import type { EntityRecord } from './entity-api.ts';
import {
  DATA_ARCHIVED_TITLE,
  describeSaveError,
  NOTHING_TO_CHANGE,
} from '#client/api/form-errors.ts';
import type { SaveProblem } from '#client/api/form-errors.ts';
import {
  fetchLatest,
  useCreateEntity,
  useEditedVersion,
  useUpdateEntity,
} from './entity-queries.ts';
import { lowerLabel } from './entity-registry.ts';
import { DocumentField } from './DocumentField.tsx';
import { FieldInput } from './FieldInput.tsx';
import { changedFields, createBody, initialFormValues } from './form-values.ts';
import type { FormValues } from './form-values.ts';
import { mapPropertyErrors } from './property-path.ts';
import { ReasonDialog } from '../reason/ReasonDialog.tsx';
import { usePropertyDefinitions } from '../settings/property-definitions-api.ts';
import { PropertyInputs } from './PropertyInputs.tsx';
import { MethodLimitFit } from './MethodLimitFit.tsx';
import { TrainSharedArea } from './TrainSharedArea.tsx';
import { equipmentTrainsDef } from '#core/entities/defs/index.ts';
import type { TTrainSharedArea } from '#core/schemas/productions.schemas.ts';
import { ResidueMeasurePanel } from './ResidueMeasurePanel.tsx';
import {
  initialPropertyValues,
  propertyChanges,
  propertyCreateValues,
  propertyField,
  PROPERTIES,
} from './property-form.ts';
import { useFacilityScope } from './use-facility-scope.ts';
import { useRecordName } from './use-record-name.ts';
import { fillFromTrain, trainSourceOf } from './train-fill.ts';
import { isFieldShown } from '#core/facilities/facility-features.ts';
import { useFacilityKind } from '#client/session/use-session.ts';
import { controlledTypeOf } from '../records/controlled-entity.tsx';
import { EditNotice } from '../records/EditNotice.tsx';
import { VersionTag } from '../policies/VersionTag.tsx';
import { versionNumbersOf } from '../policies/rules-api.ts';
import { RecordHistory } from '../audit-log/RecordHistory.tsx';
import { controlledStateOf, isLockedForEditing } from '../records/record-actions.ts';
import { closeAsking } from '../reason/confirm-discard.ts';

/** A save, as the form would send it: a create's whole body or an edit's changed fields. */
export interface EntityFormSave {
  values: Record<string, unknown>;
  reason: string;
  /** The record edited, at the version the edit was made from; null for a create. */
  base: EntityRecord | null;
}

/**
 * Where the form's save goes instead of the record itself: a change assessment stages the create
 * or edit (a create then takes a reason too), and nothing is written until it is approved.
 */
export interface EntityFormTarget {
  title: string;
  okText: string;
  /** Values staged before, on top of the record's (editing a staged change). */
  values?: Record<string, unknown>;
  submit: (save: EntityFormSave) => Promise<void>;
}

interface EntityFormDrawerProps {
  def: EntityDef;
  /** The record to edit, or null to create one. */
  record: EntityRecord | null;
  target?: EntityFormTarget;
  /** Values a new record starts with (a step added from its API production names it). */
  preset?: Record<string, unknown>;
  onClose: () => void;
}

type Problem = SaveProblem & {
  details: string[];
  /** Information rather than a problem: what a reload did. */
  isInfo?: boolean;
};

/**
 * Create and edit of any declared entity. A controlled record's list and plain read answer its
 * version in force; an edit changes its draft, so the form opens on the draft, read afresh.
 */
export function EntityFormDrawer(props: EntityFormDrawerProps) {
  const { def, record, onClose } = props;
  const draft = useEditedVersion(def, record?.id ?? null);
  if (!def.controlled || !record) return <EntityForm {...props} />;
  if (draft.data) return <EntityForm {...props} record={draft.data} />;
  return (
    <Drawer open size={560} title={`Edit ${lowerLabel(def.label)}`} onClose={onClose}>
      {draft.isError ? (
        <Alert type="error" showIcon title={describeSaveError(draft.error).message} />
      ) : (
        <Spin />
      )}
    </Drawer>
  );
}

/** The form itself: one form item per field, by kind. */
function EntityForm({ def, record, target, preset, onClose }: EntityFormDrawerProps) {
  const scope = useFacilityScope();
  const facility = useFacilityKind();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  // Modal.confirm bound to the app's context (theme, locale) rather than the static one.
  const [modal, modalHolder] = Modal.useModal();
  // The version the edit is made from: the opened record, or the one a conflict reloaded.
  const [base, setBase] = useState<EntityRecord | null>(record);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [pendingChanges, setPendingChanges] = useState<Record<string, unknown> | null>(null);
  const [reloading, setReloading] = useState(false);
  // The reference document chosen for upload, for entities that take one.
  const [file, setFile] = useState<File | null>(null);
  const [documentError, setDocumentError] = useState<string | null>(null);
  const create = useCreateEntity(def);
  const update = useUpdateEntity(def);
  const label = lowerLabel(def.label);
  const nameOf = useRecordName(def);
  // The facility's additional properties of this entity, if it carries any.
  const definitionsQuery = usePropertyDefinitions(def.propertyTarget);
  const definitions = definitionsQuery.data ?? [];
  const propertyFields = definitions.filter((d) => !d.archived).map(propertyField);
  const withProperties = (values: Record<string, unknown>, extra: Record<string, unknown>) =>
    Object.keys(extra).length > 0 ? { ...values, [PROPERTIES]: extra } : values;
  const startValues = (from: EntityRecord | null) =>
    def.propertyTarget
      ? { ...initialFormValues(def, from), [PROPERTIES]: initialPropertyValues(definitions, from) }
      : initialFormValues(def, from);

  function showError(error: unknown): void {
    const described = describeSaveError(error);
    const errors = isApiError(error) ? error.errors : undefined;
    // The file's problems show under the file picker, which is not a field of the declaration.
    const onDocument = (errors ?? []).filter((e) => e.property === 'document');
    const documentMessage = onDocument.flatMap((e) => Object.values(e.constraints)).join(' ');
    setDocumentError(documentMessage || null);
    const mapped = mapPropertyErrors(
      def,
      errors?.filter((e) => e.property !== 'document'),
      propertyFields,
    );
    if (mapped.fields.length > 0) form.setFields(mapped.fields);
    // Messages that landed on their fields are not repeated above the form.
    const onFields = described.kind === 'fields' && described.title !== DATA_ARCHIVED_TITLE;
    setProblem({
      ...described,
      message: onFields && (mapped.fields.length > 0 || documentMessage) ? '' : described.message,
      details: mapped.general,
    });
  }

  async function save(values: FormValues): Promise<void> {
    setProblem(null);
    if (!base && target) {
      setPendingChanges(
        withProperties(createBody(def, values), propertyCreateValues(definitions, values)),
      );
      return;
    }
    if (!base) {
      try {
        const created = await create.mutateAsync({
          body: withProperties(createBody(def, values), propertyCreateValues(definitions, values)),
          file,
        });
        void message.success(`${def.label} '${nameOf(created)}' added`);
        onClose();
      } catch (error) {
        showError(error);
      }
      return;
    }
    const changes = withProperties(
      changedFields(def, base, values),
      propertyChanges(definitions, base, values),
    );
    if (Object.keys(changes).length === 0 && !file) {
      setProblem({ kind: 'notice', ...NOTHING_TO_CHANGE, details: [] });
      return;
    }
    setPendingChanges(changes);
  }

  async function saveEdit(reason: string): Promise<void> {
    if (target && pendingChanges) {
      try {
        await target.submit({ values: pendingChanges, reason, base });
        setPendingChanges(null);
        onClose();
      } catch (error) {
        setPendingChanges(null);
        showError(error);
      }
      return;
    }
    if (!base || !pendingChanges) return;
    try {
      await update.mutateAsync({
        id: base.id,
        changes: pendingChanges,
        reason,
        version: base.version,
        file,
      });
      setPendingChanges(null);
      void message.success(`${def.label} '${nameOf(base)}' saved`);
      onClose();
    } catch (error) {
      // The drawer shows what went wrong next to the form; the reason dialog closes.
      setPendingChanges(null);
      showError(error);
    }
  }

  /** Loads the record as it is now and puts the user's own changes back on top of it. */
  async function reloadKeepingChanges(): Promise<void> {
    if (!base) return;
    setReloading(true);
    try {
      const current = form.getFieldsValue(true) as FormValues;
      const mine = changedFields(def, base, current);
      const mineProperties = propertyChanges(definitions, base, current);
      const latest = await fetchLatest(queryClient, scope, def, base.id);
      setBase(latest);
      const latestProperties = (latest[PROPERTIES] ?? {}) as Record<string, unknown>;
      form.setFieldsValue(
        startValues({
          ...latest,
          ...mine,
          [PROPERTIES]: { ...latestProperties, ...mineProperties },
        }),
      );
      const names = [
        ...def.fields.filter((f) => f.name in mine).map((f) => f.label),
        ...propertyFields.filter((f) => f.name in mineProperties).map((f) => f.label),
      ];
      setProblem({
        kind: 'notice',
        isInfo: true,
        title: `Reloaded version ${latest.version}`,
        message:
          names.length > 0
            ? `Your changes to ${names.join(', ')} are kept on top of the current values. Check them and save again.`
            : 'The form shows the current values.',
        details: [],
      });
    } catch (error) {
      showError(error);
    } finally {
      setReloading(false);
    }
  }

  /** Closes the form, asking first when what was typed would be lost. */
  const closeForm = () => closeAsking(modal.confirm, form, onClose, file !== null);

  function onValuesChange(changed: Partial<FormValues>): void {
    // A field the user corrects no longer carries the server's message.
    if (problem?.kind === 'notice') setProblem(null);
    const source = trainSourceOf(def, changed);
    if (source)
      fillFromTrain(queryClient, scope, form, source).catch(() => {
        void message.error(source.failure);
      });
  }

  const busy = create.isPending || update.isPending;
  // A controlled record says what saving does to its version, and is locked under review.
  const documentType = controlledTypeOf(def);
  const controlled = base ? controlledStateOf(base) : null;
  const locked = controlled !== null && isLockedForEditing(controlled.status);
  const details = (
    <>
      {documentType && controlled && base ? (
        <>
          <VersionTag controlled={{ state: controlled, ...versionNumbersOf(base) }} />
          <EditNotice documentType={documentType} state={controlled} />
        </>
      ) : null}
      {problem ? (
        <Alert
          style={{ marginBottom: 16 }}
          type={problem.isInfo ? 'info' : problem.kind === 'notice' ? 'warning' : 'error'}
          showIcon
          title={problem.title}
          description={
            <>
              {problem.message ? <div>{problem.message}</div> : null}
              {problem.details.map((detail) => (
                <div key={detail}>{detail}</div>
              ))}
            </>
          }
          action={
            problem.kind === 'conflict' ? (
              <Button size="small" loading={reloading} onClick={() => void reloadKeepingChanges()}>
                Reload current values
              </Button>
            ) : undefined
          }
        />
      ) : null}
      {def.key === 'analyticalMethods' && base && !target ? (
        <>
          <ResidueMeasurePanel methodId={base.id} />
          <MethodLimitFit methodId={base.id} />
        </>
      ) : null}
      {def.key === equipmentTrainsDef.key && base ? (
        <TrainSharedArea area={base.sharedArea as TTrainSharedArea | undefined} />
      ) : null}
      {def.propertyTarget && definitionsQuery.isPending ? (
        <Spin />
      ) : (
        <Form<FormValues>
          form={form}
          name={`${def.key}-form`}
          layout="vertical"
          initialValues={startValues(withStaged(record, target?.values ?? preset))}
          onFinish={(values) => void save(values)}
          onValuesChange={onValuesChange}
          scrollToFirstError
        >
          {def.fields
            .filter((field) => isFieldShown(facility, def.key, field.name))
            .map((field) => (
              <FieldInput key={field.name} field={field} name={[field.name]} />
            ))}
          <PropertyInputs definitions={definitions} record={base} />
          {/* A file is uploaded with a direct save only; a staged change carries values. */}
          {def.document && !target ? (
            <DocumentField
              def={def}
              ownerId={base?.id ?? null}
              file={file}
              error={documentError}
              onChange={(chosen) => {
                setFile(chosen);
                setDocumentError(null);
              }}
            />
          ) : null}
        </Form>
      )}
    </>
  );
  return (
    <Drawer
      open
      size={560}
      title={target?.title ?? (base ? `Edit ${label} '${nameOf(base)}'` : `Add ${label}`)}
      onClose={closeForm}
      // Typed entries are not lost to a stray Escape or a click beside the drawer.
      keyboard={false}
      mask={{ closable: false }}
      footer={
        <Space>
          <Button onClick={closeForm}>Cancel</Button>
          <Button type="primary" loading={busy} disabled={locked} onClick={() => form.submit()}>
            {target?.okText ?? (base ? 'Save' : `Add ${label}`)}
          </Button>
        </Space>
      }
    >
      {modalHolder}
      {base && !target ? (
        // The form stays mounted while the History tab is open, so typed entries are kept.
        <Tabs
          items={[
            { key: 'details', label: 'Details', children: details },
            {
              key: 'history',
              label: 'History',
              children: <RecordHistory def={def} id={base.id} />,
            },
          ]}
        />
      ) : (
        details
      )}
      <ReasonDialog
        open={pendingChanges !== null}
        title={target ? `Why is this change staged?` : `Why are you changing this ${label}?`}
        okText={target?.okText ?? 'Save'}
        description={`Changed: ${[
          ...def.fields.filter((f) => pendingChanges && f.name in pendingChanges),
          ...propertyFields.filter(
            (f) => f.name in ((pendingChanges?.[PROPERTIES] ?? {}) as object),
          ),
        ]
          .map((f) => f.label)
          .concat(file && def.document ? [def.document.label] : [])
          .join(', ')}`}
        managedByCaller
        onSubmit={({ reason }) => saveEdit(reason)}
        onClose={() => setPendingChanges(null)}
      />
    </Drawer>
  );
}

/** The form's start: the record (or nothing, for a create) with the staged values on top. */
function withStaged(
  record: EntityRecord | null,
  staged: Record<string, unknown> | undefined,
): EntityRecord | null {
  if (!staged) return record;
  return {
    ...(record ?? { id: 0, version: 0, archivedAt: null, archiveReason: null }),
    ...staged,
  };
}
