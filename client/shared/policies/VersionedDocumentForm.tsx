import { Alert, Button, Flex, Form, notification, Spin, Tag } from 'antd';
import type { FormInstance } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { isApiError } from '#client/api/api-error.ts';
import { NOTHING_TO_CHANGE, VERSION_CONFLICT } from '#client/api/form-errors.ts';
import { ReasonDialog } from '../reason/ReasonDialog.tsx';
import { formFieldErrors } from '#client/api/form-errors.ts';
import { changedFields, rebase } from './document-changes.ts';
import type { VersionedDocument } from './rules-api.ts';
import { ControlledRecordPanel } from '../records/ControlledRecordPanel.tsx';
import { EditNotice } from '../records/EditNotice.tsx';
import { isLockedForEditing } from '../records/record-actions.ts';
import { validatedValues } from '../validated-values.ts';
import { VersionTag } from './VersionTag.tsx';

interface VersionedDocumentFormProps<T extends object> {
  /** Names the document in the save button, the reason dialog and notices. */
  name: string;
  queryKey: readonly unknown[];
  load: (signal: AbortSignal) => Promise<VersionedDocument<T>>;
  save: (changes: Partial<T>, version: number, reason: string) => Promise<VersionedDocument<T>>;
  canEdit: boolean;
  /** Fields the server fixes: shown, never sent. */
  fixed?: readonly (keyof T)[];
  onSaved?: () => void;
  /**
   * Where the save goes instead of the document: a change assessment stages the edit, and the
   * document is untouched until the assessment is approved.
   */
  target?: DocumentFormTarget<T>;
  children: (form: FormInstance<T>) => ReactNode;
}

export interface DocumentFormTarget<T> {
  okText: string;
  /** Values staged before, on top of the document's (editing a staged change). */
  values?: Partial<T>;
  submit: (changes: Partial<T>, version: number, reason: string) => Promise<void>;
}

/**
 * A facility document kept with a version (a cleaning limit policy, the microbial policy, the
 * inspection settings, an approval policy): it shows whether it is still the defaults, sends
 * only what changed with the version it was made from and a reason, puts the server's messages
 * on their fields, and after a version conflict offers the current values with the user's own
 * changes kept on top.
 */
export function VersionedDocumentForm<T extends object>(props: VersionedDocumentFormProps<T>) {
  const { queryKey, load } = props;
  const query = useQuery({ queryKey, queryFn: ({ signal }) => load(signal) });
  if (query.isError) return <Alert type="error" title={query.error.message} />;
  if (query.isPending) return <Spin />;
  return <LoadedDocumentForm {...props} loaded={query.data} />;
}

function LoadedDocumentForm<T extends object>({
  name,
  queryKey,
  load,
  save,
  canEdit,
  fixed = [],
  onSaved,
  target,
  children,
  loaded,
}: VersionedDocumentFormProps<T> & { loaded: VersionedDocument<T> }) {
  const [form] = Form.useForm<T>();
  const queryClient = useQueryClient();
  // What the form was loaded from: the base of the changes sent and of the version.
  const [base, setBase] = useState(loaded);
  const [pending, setPending] = useState<Partial<T> | null>(null);
  const [conflict, setConflict] = useState(false);

  const controlled = base.controlled;
  const locked = controlled !== undefined && isLockedForEditing(controlled.state.status);
  const edited = (): Partial<T> => ({ ...base.document, ...form.getFieldsValue(true) });

  async function askForReason(): Promise<void> {
    if (!(await validatedValues(form))) return;
    const changes = changedFields(base.document, edited(), fixed);
    if (Object.keys(changes).length === 0) {
      notification.warning({
        title: NOTHING_TO_CHANGE.title,
        description: NOTHING_TO_CHANGE.message,
      });
      return;
    }
    setPending(changes);
  }

  async function submit(reason: string): Promise<void> {
    if (target) {
      try {
        await target.submit(pending!, base.version, reason);
        setPending(null);
        onSaved?.();
      } catch (error) {
        setPending(null);
        showFailure(error);
      }
      return;
    }
    try {
      const saved = await save(pending!, base.version, reason);
      setPending(null);
      setConflict(false);
      setBase(saved);
      form.resetFields();
      form.setFieldsValue(saved.document as Parameters<typeof form.setFieldsValue>[0]);
      queryClient.setQueryData(queryKey, saved);
      notification.success({ title: 'Saved', description: `${name} saved.` });
      onSaved?.();
    } catch (error) {
      if (!showFailure(error)) throw error;
      setPending(null);
    }
  }

  /** Puts a refusal where it belongs; false when only a notice could say it. */
  function showFailure(error: unknown): boolean {
    const fields = formFieldErrors(error);
    if (isApiError(error) && error.errName === 'VersionConflictError') {
      setConflict(true);
      return true;
    }
    if (fields.length > 0) {
      form.setFields(fields as Parameters<typeof form.setFields>[0]);
      return true;
    }
    notification.error({
      title:
        isApiError(error) && error.errName === 'NothingToChangeError'
          ? NOTHING_TO_CHANGE.title
          : 'Error Occurred',
      description: error instanceof Error ? error.message : String(error),
    });
    return false;
  }

  async function reloadKeepingEdits(): Promise<void> {
    const current = await queryClient.fetchQuery({
      queryKey,
      queryFn: ({ signal }) => load(signal),
      staleTime: 0,
    });
    const merged = rebase(base.document, current.document, edited());
    setBase(current);
    setConflict(false);
    form.setFieldsValue(merged as Parameters<typeof form.setFieldsValue>[0]);
  }

  /** A signature moves the record on (status, version): the form starts from what it now is. */
  async function reloadAfterSigning(): Promise<void> {
    const current = await queryClient.fetchQuery({
      queryKey,
      queryFn: ({ signal }) => load(signal),
      staleTime: 0,
    });
    setBase(current);
    setConflict(false);
    form.resetFields();
    form.setFieldsValue(current.document as Parameters<typeof form.setFieldsValue>[0]);
  }

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={target?.values ? { ...loaded.document, ...target.values } : loaded.document}
      disabled={!canEdit}
      name={name.replace(/\W+/g, '-')}
    >
      <Flex vertical gap="middle">
        {controlled && !target ? (
          <>
            <VersionTag controlled={controlled} />
            <ControlledRecordPanel
              documentType={controlled.documentType}
              documentId={controlled.id}
              title={name}
              state={controlled.state}
              canModify={canEdit}
              path={controlled.path}
              onSigned={() => void reloadAfterSigning()}
            />
            {canEdit ? (
              <EditNotice documentType={controlled.documentType} state={controlled.state} />
            ) : null}
          </>
        ) : base.version === 0 ? (
          <Alert type="info" showIcon title="Defaults of the specification — not yet changed" />
        ) : (
          <div>
            <Tag>Version {base.version}</Tag>
          </div>
        )}
        {conflict ? (
          <Alert
            type="warning"
            showIcon
            title={VERSION_CONFLICT.title}
            description={VERSION_CONFLICT.message}
            action={
              <Button onClick={() => void reloadKeepingEdits()} disabled={false}>
                Reload current values
              </Button>
            }
          />
        ) : null}
        {children(form)}
        {canEdit ? (
          <div>
            <Button type="primary" disabled={locked} onClick={() => void askForReason()}>
              {target?.okText ?? `Save ${name}`}
            </Button>
          </div>
        ) : null}
      </Flex>
      <ReasonDialog
        open={pending !== null}
        title={target ? `Stage the change of the ${name}` : `Save ${name}`}
        okText={target?.okText ?? 'Save'}
        description={`Why does the ${name} change?`}
        managedByCaller
        onSubmit={({ reason }) => submit(reason)}
        onClose={() => setPending(null)}
      />
    </Form>
  );
}
