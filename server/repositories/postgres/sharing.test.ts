import { expect, it } from 'vitest';
import { twoInstancePools } from '../../../tests/helpers/pg-database.js';
import { TestClock } from '../../../tests/helpers/server.js';
import { PendingLimitError } from '../types/index.js';
import { PgSharingRepository } from './sharing.js';
import { PgUsersRepository } from './users.js';

// Sharing on PostgreSQL: nearest-share roles, invitations renewed per address whatever its case,
// the pending limit that writes nothing when exceeded, and one invitation accepted once even when
// two instances try at the same moment.

const pools = twoInstancePools(6);
const clock = new TestClock();

async function collection(userId: number, parentId: number | null = null): Promise<number> {
  const { rows } = await pools.a.query<{ id: number }>(
    "INSERT INTO collections (user_id, parent_id, title, created, last_update) VALUES ($1, $2, 'c', '', '') RETURNING id",
    [userId, parentId],
  );
  return rows[0].id;
}

it('roles come from the nearest share; removing a user or unsharing drops shares and open invitations', async () => {
  const users = new PgUsersRepository(pools.a, clock);
  const owner = await users.create({ email: 'o@example.test', passwordHash: null });
  const ann = await users.create({ email: 'ann@example.test', passwordHash: null, fullName: 'Ann' });
  const bob = await users.create({ email: 'bob@example.test', passwordHash: null });
  const top = await collection(owner.id);
  const child = await collection(owner.id, top);
  const one = new PgSharingRepository(pools.a, clock);
  const two = new PgSharingRepository(pools.b, clock);
  await one.setRole(top, ann.id, 'viewer', owner.id);
  clock.advance(1);
  await two.setRole(child, ann.id, 'member', owner.id);
  await two.setRole(top, bob.id, 'viewer', owner.id);
  await one.setRole(top, bob.id, 'member', owner.id); // replaces the role, keeps the join time
  const rows = await two.collaborators([child, top]);
  expect(rows.map((r) => [r.user_id, r.role, r.collection_id])).toEqual([[ann.id, 'member', child], [bob.id, 'member', top]]);
  expect(rows[0]).toMatchObject({ email: 'ann@example.test', full_name: 'Ann' });
  expect(await two.collaborators([])).toEqual([]);

  await one.invite({ collectionId: top, inviterId: bob.id, role: 'viewer', emails: ['x@example.test'], ttlMs: 1000, maxPending: 10 });
  expect(await two.removeUser(bob.id, [top, child])).toBe(1);
  expect(await one.openInvitations([top])).toEqual([]);
  await one.invite({ collectionId: child, inviterId: owner.id, role: 'viewer', emails: ['y@example.test'], ttlMs: 1000, maxPending: 10 });
  expect(await two.unshare([top, child])).toEqual({ collaborators: 2, invitations: 1 });
  expect(await two.unshare([])).toEqual({ collaborators: 0, invitations: 0 });
});

it('invitations: renewed per address in any case, all or nothing at the pending limit, accepted once across instances', async () => {
  const users = new PgUsersRepository(pools.a, clock);
  const owner = await users.create({ email: 'owner2@example.test', passwordHash: null });
  const guest = await users.create({ email: 'guest@example.test', passwordHash: null });
  const col = await collection(owner.id);
  const one = new PgSharingRepository(pools.a, clock);
  const two = new PgSharingRepository(pools.b, clock);
  const first = await one.invite({ collectionId: col, inviterId: owner.id, role: 'viewer', emails: ['Guest@Example.test', 'z@example.test'], ttlMs: 60_000, maxPending: 3 });
  expect(first.map((i) => i.created)).toEqual([true, true]);
  const again = await two.invite({ collectionId: col, inviterId: owner.id, role: 'member', emails: ['guest@example.test'], ttlMs: 60_000, maxPending: 3 });
  expect(again[0]).toMatchObject({ created: false, invitation: { id: first[0].invitation.id, role: 'member', email: 'Guest@Example.test' } });
  expect(await one.byToken(first[0].token)).toBeUndefined(); // the renewed invitation has a new secret
  await expect(one.invite({ collectionId: col, inviterId: owner.id, role: 'viewer', emails: ['p@example.test', 'q@example.test'], ttlMs: 60_000, maxPending: 3 })).rejects.toBeInstanceOf(PendingLimitError);
  expect(await two.pendingCount(owner.id)).toBe(2);
  expect((await two.findOpen({ email: 'GUEST@example.test' })).map((i) => i.id)).toEqual([first[0].invitation.id]);
  expect((await two.findOpen({ collectionId: col, unsentOnly: true })).length).toBe(2);
  await one.markSent(first[1].invitation.id);
  await two.markFailed(first[0].invitation.id, 'smtp down');
  expect((await one.findOpen({ unsentOnly: true })).map((i) => [i.id, i.last_error, i.send_attempts])).toEqual([[first[0].invitation.id, 'smtp down', 1]]);
  const renewed = await two.renew(first[0].invitation.id, 120_000);
  expect(renewed?.invitation.expires_at).toBe(clock.now() + 120_000);

  const invitation = (await one.byToken(renewed!.token))!;
  const accepted = await Promise.all([one.accept(invitation.id, guest.id), two.accept(invitation.id, guest.id), one.accept(invitation.id, guest.id)]);
  expect(accepted.filter(Boolean)).toHaveLength(1);
  expect((await two.collaborators([col])).map((r) => [r.user_id, r.role])).toEqual([[guest.id, 'member']]);
  expect(await one.renew(invitation.id, 1000)).toBeUndefined();
  clock.advance(60_001);
  expect(await one.accept(first[1].invitation.id, guest.id)).toBe(false); // expired
  expect(await one.pendingCount(owner.id)).toBe(0);
  expect((await one.openInvitations([col])).map((i) => i.id)).toEqual([first[1].invitation.id]);
});
