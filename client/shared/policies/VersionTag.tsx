import { Tag } from 'antd';
import { versionLabel } from './version-label.ts';
import type { ControlledRef } from './rules-api.ts';

/** Which version a form shows: the draft it edits, or the version in force. */
export function VersionTag({
  controlled,
}: {
  controlled: Pick<ControlledRef, 'state' | 'inForceVersionNumber' | 'draftVersionNumber'>;
}) {
  const label = versionLabel(controlled);
  if (!label) return null;
  return (
    <div>
      <Tag color={label.inForce ? 'success' : 'warning'}>{label.text}</Tag>
      {!label.inForce && controlled.inForceVersionNumber !== null ? (
        <Tag>In force: version {controlled.inForceVersionNumber}</Tag>
      ) : null}
    </div>
  );
}
