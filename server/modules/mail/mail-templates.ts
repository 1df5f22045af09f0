import type { MailContent } from '#server/util/mailer.ts';

/** Product-branded mail bodies: a plain-text part and an HTML part that says the same. */

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function layout(
  heading: string,
  paragraphs: string[],
  action?: { label: string; url: string },
): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#0b6e4f;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>
       <p style="margin:0 0 16px;font-size:13px;color:#555">If the button does not work, copy this address into your browser:<br>${escapeHtml(action.url)}</p>`
    : '';
  return `<!doctype html><html><body style="margin:0;background:#f4f6f5;font-family:Arial,Helvetica,sans-serif;color:#1f2a25">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="background:#ffffff;border-radius:8px">
<tr><td style="background:#0b6e4f;color:#ffffff;padding:16px 24px;border-radius:8px 8px 0 0;font-size:20px;font-weight:700">Carryover</td></tr>
<tr><td style="padding:24px"><h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(heading)}</h1>${body}${button}</td></tr>
<tr><td style="padding:16px 24px;font-size:12px;color:#6b7a73;border-top:1px solid #e3e8e5">Carryover · Cleaning Validation Risk Management Platform. This message was sent automatically; please do not reply.</td></tr>
</table></td></tr></table></body></html>`;
}

export function resetLinkMail(name: string, url: string): MailContent {
  const lines = [
    `Hello ${name},`,
    'We received a request to reset your Carryover password. The link below works once and expires in 24 hours.',
    'If you did not ask for this, you can ignore this message: your password stays as it is.',
  ];
  return {
    subject: 'Reset your Carryover password',
    text: `${lines.join('\n\n')}\n\nReset your password: ${url}\n\n-- \nCarryover · Cleaning Validation Risk Management Platform`,
    html: layout('Reset your password', lines, { label: 'Reset Password', url }),
  };
}

/** An administrator created an account: the user sets their password from this link. */
export function invitationMail(name: string, username: string, url: string): MailContent {
  const lines = [
    `Hello ${name},`,
    `An administrator has created a Carryover account for you. Your Employee ID is ${username}.`,
    'Set your password with the link below to complete your registration. The link works once and expires in 24 hours.',
  ];
  return {
    subject: 'You are invited to Carryover',
    text: `${lines.join('\n\n')}\n\nSet your password: ${url}\n\n-- \nCarryover · Cleaning Validation Risk Management Platform`,
    html: layout('Welcome to Carryover', lines, { label: 'Set Password', url }),
  };
}

/** To the account's owner: their password was set again with a secret key (21 CFR 11.300(d)). */
export function passwordSetWithKeyMail(name: string, username: string): MailContent {
  const lines = [
    `Hello ${name},`,
    `The password of your Carryover account (Employee ID ${username}) was just set again with a secret key issued by an administrator. Every session of your account has been ended.`,
    'If you did not do this yourself, contact your system administrator at once: someone else may be signing as you.',
  ];
  return {
    subject: 'Your Carryover password was set with a secret key',
    text: `${lines.join('\n\n')}\n\n-- \nCarryover · Cleaning Validation Risk Management Platform`,
    html: layout('Your password was set with a secret key', lines),
  };
}

/** To each system administrator: the same event, as a security event to look into. */
export function passwordSetWithKeySecurityMail(
  name: string,
  account: { name: string; username: string },
): MailContent {
  const lines = [
    `Hello ${name},`,
    `Security event: the password of ${account.name} (Employee ID ${account.username}), an account that already had a password, was just set again with a secret key issued by an administrator. Every session of the account has been ended and its owner has been told.`,
    'Check in the audit log who issued the key and who used it. If the owner did not do this, block the account.',
  ];
  return {
    subject: `Security event: password of ${account.username} set with a secret key`,
    text: `${lines.join('\n\n')}\n\n-- \nCarryover · Cleaning Validation Risk Management Platform`,
    html: layout('Security event: password set with a secret key', lines),
  };
}
