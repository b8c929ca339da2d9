import type { ShareRole } from '../../../lib/api/constants.js';
import type { MailMessage } from './mailer.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Header-safe text: no line breaks, bounded length. */
const oneLine = (s: string, max = 120) => s.replace(/[\r\n\t]+/g, ' ').trim().slice(0, max);

interface InvitationMessageInput {
  to: string;
  inviterName: string;
  collectionTitle: string;
  role: ShareRole;
  joinUrl: string;
  expiresAt: Date;
}

/** The invitation email: who invites you to what, with which rights, the join link and its expiry. */
export function invitationMessage(input: InvitationMessageInput): MailMessage {
  const inviter = oneLine(input.inviterName);
  const title = oneLine(input.collectionTitle);
  const rights = input.role === 'member' ? 'add, edit and remove bookmarks in it and invite others' : 'read it';
  const expires = input.expiresAt.toISOString().slice(0, 10);
  const text = [
    `${inviter} invited you to the collection "${title}" on Tidemark as a ${input.role}: you will be able to ${rights}.`,
    '',
    'To join, open this link and sign in (or create an account):',
    input.joinUrl,
    '',
    `The link works once and until ${expires}. If you did not expect this invitation, ignore this email.`,
  ].join('\n');
  const html = `<!doctype html><html><body>
<p>${escapeHtml(inviter)} invited you to the collection <strong>${escapeHtml(title)}</strong> on Tidemark as a ${input.role}: you will be able to ${rights}.</p>
<p><a href="${escapeHtml(input.joinUrl)}">Join the collection</a></p>
<p>Or paste this link into your browser: ${escapeHtml(input.joinUrl)}</p>
<p>The link works once and until ${expires}. If you did not expect this invitation, ignore this email.</p>
</body></html>`;
  return { to: input.to, subject: `${inviter} shared "${title}" with you on Tidemark`, text, html };
}
