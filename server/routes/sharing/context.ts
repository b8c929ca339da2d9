import type { FastifyInstance } from 'fastify';
import { md5 } from '../../domain/secrets.js';
import type { Collaborator } from '../../../lib/api/types.js';
import type { CollaboratorRow } from '../../repositories/index.js';

/** A collection's place in the tree: itself then its ancestors (`chain`), and its descendants. */
export async function treeOf(app: FastifyInstance, collectionId: number): Promise<{ chain: number[]; descendants: number[] }> {
  const chain = (await app.repos.access.collectionWithAncestors(collectionId)).map((c) => c.id);
  const descendants = (await app.repos.collections.descendantIds(collectionId)).filter((id) => id !== collectionId);
  return { chain, descendants };
}

/** The Collaborator record; `email` is empty for read-only callers. */
export function toCollaborator(
  row: Pick<CollaboratorRow, 'user_id' | 'email' | 'full_name'> & { role: Collaborator['role'] },
  showEmail: boolean,
): Collaborator {
  return { _id: row.user_id, email: showEmail ? row.email : '', email_MD5: md5(row.email), fullName: row.full_name, role: row.role };
}
