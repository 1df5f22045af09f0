import { screen } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ZAuditLogPage, type TAuditLogRow } from '#core/schemas/audit.schemas.ts';
import { answer, callsTo, renderInApp, signIn } from '#client/test/dom-harness.tsx';
import { useAuditLogs } from './audit-log-api.ts';

// The audit log read again whenever it is shown (found by a browser test that opened it through
// the router after an edit: the edit's row was missing for the 30 s the app keeps other reads).

function row(id: number, reason: string): TAuditLogRow {
  return {
    id,
    at: '2026-12-07T10:00:00.000Z',
    userId: 1,
    userName: 'Quality Lead',
    facilityId: 2,
    facilityName: 'Oral Solid Dosage Plant',
    domain: 'Products',
    action: 'Update',
    entityId: '7',
    reason,
    oldValues: null,
    newValues: null,
  };
}

function Reasons() {
  const logs = useAuditLogs({}, 1, 20, 2);
  return (
    <ul>
      {logs.data?.data.map((r) => (
        <li key={r.id}>{r.reason}</li>
      ))}
    </ul>
  );
}

function ShownOrNot() {
  const [shown, setShown] = useState(true);
  return (
    <>
      <button onClick={() => setShown((now) => !now)}>toggle</button>
      {shown && <Reasons />}
    </>
  );
}

beforeEach(() => signIn());

describe('the audit log', () => {
  it('is read again when shown again, so a change just made is in it', async () => {
    const rows = [row(1, 'First change')];
    answer('GET', '/audit_logs', () =>
      ZAuditLogPage.parse({
        data: [...rows],
        total: rows.length,
        pageNumber: 1,
        pageLimit: 20,
        names: {},
      }),
    );
    const { user } = renderInApp(<ShownOrNot />);
    expect(await screen.findByText('First change')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'toggle' }));
    rows.unshift(row(2, 'Change just made'));
    await user.click(screen.getByRole('button', { name: 'toggle' }));
    expect(await screen.findByText('Change just made')).toBeTruthy();
    expect(callsTo('GET', '/audit_logs')).toHaveLength(2);
  });
});
