import type { ServerConfig } from '../../config.js';
import type { Repositories } from '../../repositories/index.js';
import type { InvitationRow } from '../../repositories/index.js';
import type { Mailer } from '../mail/index.js';
import { invitationMessage } from '../mail/invitation-message.js';

interface InvitationMailDeps {
  repos: Pick<Repositories, 'users' | 'collections' | 'sharing'>;
  mailer: Mailer;
  /** Origin the join links point at, e.g. https://bookmarks.example.com (no trailing slash). */
  origin: string;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

interface DeliveryOutcome {
  sent: string[];
  failed: { email: string; error: string }[];
}

/** The join link of an invitation: the web page at /join reads it and calls POST /collection/{id}/join. */
function joinLink(origin: string, collectionId: number, token: string): string {
  return `${origin.replace(/\/+$/, '')}/join?collection=${collectionId}&token=${encodeURIComponent(token)}`;
}

/** Where join links point: the configured public URL, else the address the server listens on. */
export function linkOrigin(config: Pick<ServerConfig, 'publicUrl' | 'host' | 'port'>, listeningPort?: number): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  let host = config.host;
  if (host === '0.0.0.0' || host === '::' || host === '') host = '127.0.0.1';
  if (host.includes(':')) host = `[${host}]`;
  return `http://${host}:${listeningPort ?? config.port}`;
}

/**
 * Mails each invitation its join link and records the outcome on the invitation: sent, or the
 * reason it failed. A failure never removes the invitation; it stays pending and can be resent.
 */
export async function deliverInvitations(
  deps: InvitationMailDeps,
  issued: { invitation: InvitationRow; token: string }[],
): Promise<DeliveryOutcome> {
  const outcome: DeliveryOutcome = { sent: [], failed: [] };
  for (const { invitation, token } of issued) {
    const url = joinLink(deps.origin, invitation.collection_id, token);
    try {
      const [inviter, collection] = await Promise.all([
        deps.repos.users.byId(invitation.invited_by),
        deps.repos.collections.byId(invitation.collection_id),
      ]);
      const message = invitationMessage({
        to: invitation.email,
        inviterName: inviter?.full_name || inviter?.email || 'A Tidemark user',
        collectionTitle: collection?.title ?? 'a collection',
        role: invitation.role,
        joinUrl: url,
        expiresAt: new Date(invitation.expires_at),
      });
      const receipt = await deps.mailer.send(message);
      await deps.repos.sharing.markSent(invitation.id);
      outcome.sent.push(invitation.email);
      if (receipt.via === 'outbox') {
        // No mail server configured: the .eml file holds the join link. The link itself stays out of
        // the log: its token lets anyone join the collection, and logs travel further than files.
        deps.log.info({ to: invitation.email, file: receipt.file }, `invitation for ${invitation.email} written to the outbox: ${receipt.file}`);
      }
    } catch (err) {
      const reason = (err as Error).message;
      await deps.repos.sharing.markFailed(invitation.id, reason);
      outcome.failed.push({ email: invitation.email, error: reason });
      deps.log.warn({ to: invitation.email, invitationId: invitation.id, err: reason }, 'invitation email could not be sent; it stays pending');
    }
  }
  return outcome;
}
