import { HistoryOutlined, PrinterOutlined } from '@ant-design/icons';
import { Button, Flex, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import type {
  TControlledDocumentType,
  TControlledState,
  TSignAction,
  TSignResponse,
} from '#core/schemas/signatures.schemas.ts';
import { ACTION_LABELS } from '#core/records/status-labels.ts';
import {
  changeControlNotice,
  isPutInForceByChangeAssessment,
} from '#core/records/change-controlled.ts';
import { useFacilityKind } from '#client/session/use-session.ts';
import { usePermissions } from '../permissions.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { availableActions, isLockedForEditing } from './record-actions.ts';
import { downloadRecordPdf, useSignEligibility } from './records-api.ts';
import { SignaturesPanel } from './SignaturesPanel.tsx';
import { SignDialog } from './SignDialog.tsx';
import { StatusTag } from './StatusTag.tsx';
import { VersionsDrawer } from './VersionsDrawer.tsx';

export interface ControlledRecordPanelProps {
  documentType: TControlledDocumentType;
  documentId: number;
  title: string;
  state: TControlledState;
  /** Whether the user may modify the record (who may Submit it). */
  canModify: boolean;
  /**
   * The record’s path below /api/v2 (…/sop/12), for its version history; without one (a record
   * whose versions the server does not serve yet) the history is not offered.
   */
  path?: string;
  labels?: Record<string, string>;
  /** A field's value as the record's screen shows it, for the version history. */
  formatValue?: (field: string, value: unknown) => string;
  /** After a signature: the record's new state, for the screen to reload it. */
  onSigned: (response: TSignResponse) => void;
  /** A refused signature, for the screen to show where it applies. */
  onRefused?: (error: unknown) => void;
  /**
   * A record whose approval moves limits (its declaration's `changeControlled`): under change
   * control a change assessment puts it in force, so its own Submit and Approve are not offered.
   */
  changeControlled?: { pluralLabel: string };
}

/**
 * What every controlled record screen shows: the status tag, the version number, the actions
 * the user may take now (each through the sign dialog), the version history and the signatures.
 */
export function ControlledRecordPanel(props: ControlledRecordPanelProps) {
  const permissions = usePermissions();
  const [action, setAction] = useState<TSignAction | null>(null);
  const [showVersions, setShowVersions] = useState(false);
  const [printing, setPrinting] = useState(false);
  const scope = useFacilityScope();
  const facility = useFacilityKind();
  const print = () => {
    setPrinting(true);
    // Errors are shown by the http handler; the button only stops spinning.
    downloadRecordPdf(scope, props, `${props.title} v${props.state.versionNumber}.pdf`)
      .catch(() => undefined)
      .finally(() => setPrinting(false));
  };
  const inSigning = isLockedForEditing(props.state.status);
  const eligibility = useSignEligibility(
    props.documentType,
    props.documentId,
    props.state.versionNumber,
  );
  const waiting = inSigning ? eligibility.data : undefined;
  const controlled = props.changeControlled ? { changeControlled: true } : undefined;
  const byChangeAssessment =
    facility !== undefined && isPutInForceByChangeAssessment(controlled, facility);
  const actions = availableActions(
    props.state.status,
    {
      canModify: props.canModify,
      signs: waiting?.versionNumber === props.state.versionNumber ? waiting.action : null,
    },
    { facility, controlled },
  );
  return (
    <Flex vertical gap="small" aria-label="Controlled record">
      <Space wrap>
        <StatusTag state={props.state} />
        <Tag data-testid="record-version">Version {props.state.versionNumber}</Tag>
        {actions.map((name) => (
          <Button
            key={name}
            size="small"
            type={name === 'Reject' ? 'default' : 'primary'}
            danger={name === 'Reject'}
            onClick={() => setAction(name)}
          >
            {ACTION_LABELS[name]}
          </Button>
        ))}
        {props.path ? (
          <Button size="small" icon={<HistoryOutlined />} onClick={() => setShowVersions(true)}>
            Version history
          </Button>
        ) : null}
        <Button
          size="small"
          type="link"
          icon={<PrinterOutlined />}
          loading={printing}
          onClick={print}
        >
          Print (PDF)
        </Button>
      </Space>
      {byChangeAssessment &&
      props.changeControlled &&
      (props.state.status === 'BeingBuilt' || inSigning) ? (
        <Typography.Text type="secondary" data-testid="put-in-force-by-change-assessment">
          {changeControlNotice(props.changeControlled.pluralLabel)}.
        </Typography.Text>
      ) : null}
      {waiting?.reason && permissions.can('ApprovalPolicy', 'Sign') ? (
        <Typography.Text type="secondary" data-testid="sign-waiting-for-others">
          Waiting for another signer. {waiting.reason}.
        </Typography.Text>
      ) : null}
      <SignaturesPanel documentType={props.documentType} documentId={props.documentId} />
      {action ? (
        <SignDialog
          target={{
            documentType: props.documentType,
            documentId: props.documentId,
            title: `${props.title}, version ${props.state.versionNumber}`,
            action,
          }}
          onSigned={props.onSigned}
          onRefused={props.onRefused}
          onClose={() => setAction(null)}
        />
      ) : null}
      {showVersions && props.path ? (
        <VersionsDrawer
          path={props.path}
          title={props.title}
          labels={props.labels}
          formatValue={props.formatValue}
          onClose={() => setShowVersions(false)}
        />
      ) : null}
    </Flex>
  );
}
