import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '#client/api/api-error.ts';
import { validationError } from '#core/errors/errors.ts';
import { ZSignRequest, ZSignResponse } from '#core/schemas/signatures.schemas.ts';
import type { TSessionUser } from '#core/schemas/auth.schemas.ts';
import {
  F,
  SIGNED_IN_USER,
  fill,
  messageOf,
  answer,
  callsTo,
  renderInApp,
  signIn,
} from '#client/test/dom-harness.tsx';
import { SignDialog, type SignTarget } from './SignDialog.tsx';

// 21 CFR Part 11 §11.200(a): every signature re-authenticates its signer and (§11.50) carries
// its meaning; a wrong password is refused on the password field and signs nothing.

const RIGHT_PASSWORD = 'Correct-horse-9';
// The server's words for a wrong password (server/modules/auth/signing-password.ts).
const WRONG = 'Your password is not correct. 4 attempts left before your account is locked.';

const investigation: SignTarget = {
  documentType: 'Investigation',
  documentId: 3,
  title: 'Investigation INV-0003',
  action: 'Approve',
};

/** POST {F}/signatures as the server takes it: its own schema, then the signer's password. */
function answerSignatures(me: TSessionUser = SIGNED_IN_USER) {
  answer('GET', '/users/me', () => me);
  answer('POST', `${F}/signatures`, ({ body }) => {
    const request = ZSignRequest.parse(body);
    if (request.password !== RIGHT_PASSWORD)
      throw validationError([{ property: 'password', constraints: { password: WRONG } }]);
    return ZSignResponse.parse({
      signature: {
        id: 41,
        documentType: request.documentType,
        documentId: request.documentId,
        versionNumber: 1,
        action: request.action,
        signerRole: 'Approver',
        meaning: request.meaning,
        printedName: 'Quinn Approver',
        userId: me.id,
        signedAt: '2026-03-02T09:30:00.000Z',
        contentHash: 'a'.repeat(64),
        valid: true,
        reason: request.reason ?? null,
        limitsSnapshotId: null,
      },
      document: {
        id: request.documentId,
        status: request.action === 'Reject' ? 'BeingBuilt' : 'Approved',
        signatureState: request.action === 'Reject' ? 'ChangesRequested' : 'Signed',
        versionNumber: 1,
        version: 5,
      },
    });
  });
}

function renderDialog(target: SignTarget) {
  const onSigned = vi.fn();
  const onRefused = vi.fn();
  const onClose = vi.fn();
  const view = renderInApp(
    <SignDialog target={target} onSigned={onSigned} onRefused={onRefused} onClose={onClose} />,
  );
  return { ...view, onSigned, onRefused, onClose, dialog: screen.getByRole('dialog') };
}

beforeEach(() => signIn());

describe('the sign dialog', () => {
  it('shows the meaning, refuses a wrong password on its field and signs with the right one', async () => {
    answerSignatures();
    const { user, dialog, onSigned, onRefused } = renderDialog(investigation);
    expect(within(dialog).getByText('Approve: Investigation INV-0003')).toBeTruthy();
    expect(within(dialog).getByText(/legally binding equivalent of your handwritten/)).toBeTruthy();
    // The meaning is fixed per action and document type: shown, never typed (21 CFR 11.50(a)(3)).
    const meaning = within(dialog).getByLabelText('Meaning');
    expect(meaning).toHaveProperty('value', 'Approve investigation');
    expect(meaning).toHaveProperty('readOnly', true);
    expect(within(dialog).getByText('Fixed for this action')).toBeTruthy();
    const password = await within(dialog).findByLabelText('Password');
    const sign = within(dialog).getByRole('button', { name: 'Sign and approve' });

    await user.click(sign);
    await waitFor(() => expect(messageOf(password)).toBe('Enter your password to sign'));
    expect(callsTo('POST', `${F}/signatures`)).toHaveLength(0);

    await fill(user, password, 'not-my-password');
    await user.click(sign);
    await waitFor(() => expect(messageOf(password)).toBe(WRONG));
    expect(onSigned).not.toHaveBeenCalled();
    expect(onRefused).toHaveBeenCalledWith(expect.any(ApiError));
    expect(screen.getByRole('dialog')).toBe(dialog);

    await fill(user, password, RIGHT_PASSWORD);
    await user.click(sign);
    await waitFor(() => expect(onSigned).toHaveBeenCalledTimes(1));
    expect(onSigned.mock.calls[0]?.[0]).toMatchObject({
      signature: { meaning: 'Approve investigation', action: 'Approve' },
      document: { status: 'Approved', signatureState: 'Signed' },
    });
    const sent = callsTo('POST', `${F}/signatures`).map((call) => call.body);
    expect(sent).toEqual([
      {
        documentType: 'Investigation',
        documentId: 3,
        action: 'Approve',
        password: 'not-my-password',
        meaning: 'Approve investigation',
      },
      {
        documentType: 'Investigation',
        documentId: 3,
        action: 'Approve',
        password: RIGHT_PASSWORD,
        meaning: 'Approve investigation',
      },
    ]);
  });

  it("asks a rejection for its reason and sends it with the rejection's fixed meaning", async () => {
    answerSignatures();
    const { user, dialog, onSigned } = renderDialog({
      documentType: 'SOP',
      documentId: 12,
      title: 'SOP-001 Cleaning of mixers, version 2',
      action: 'Reject',
    });
    const meaning = within(dialog).getByLabelText('Meaning');
    expect(meaning).toHaveProperty('value', 'Rejected');
    expect(meaning).toHaveProperty('readOnly', true);
    await fill(user, await within(dialog).findByLabelText('Password'), RIGHT_PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Sign and reject' }));
    const reason = within(dialog).getByLabelText('Reason');
    await waitFor(() => expect(messageOf(reason)).toBe('A reason is required'));
    expect(callsTo('POST', `${F}/signatures`)).toHaveLength(0);

    // Typing into the meaning changes nothing: a rejection can only mean 'Rejected'.
    await user.type(meaning, ': hold times missing');
    expect(meaning).toHaveProperty('value', 'Rejected');
    await fill(user, reason, '  Clean hold time not stated  ');
    await user.click(within(dialog).getByRole('button', { name: 'Sign and reject' }));
    await waitFor(() => expect(onSigned).toHaveBeenCalledTimes(1));
    expect(callsTo('POST', `${F}/signatures`).map((call) => call.body)).toEqual([
      {
        documentType: 'SOP',
        documentId: 12,
        action: 'Reject',
        password: RIGHT_PASSWORD,
        meaning: 'Rejected',
        reason: 'Clean hold time not stated',
      },
    ]);
  });

  it('has a single sign-on user sign in again at the provider instead of typing a password', async () => {
    answerSignatures({ ...SIGNED_IN_USER, authType: 'sso' });
    const { dialog } = renderDialog(investigation);
    expect(
      await within(dialog).findByRole('button', { name: 'Sign in again and sign' }),
    ).toBeTruthy();
    expect(within(dialog).queryByLabelText('Password')).toBeNull();
  });
});
