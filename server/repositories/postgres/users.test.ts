import { expect, it } from 'vitest';
import { twoInstancePools } from '../../../tests/helpers/pg-database.js';
import { TestClock } from '../../../tests/helpers/server.js';
import { DuplicateEmailError, FILE_QUOTA, toUser } from '../types/index.js';
import { PgUsersRepository } from './users.js';

// Accounts on PostgreSQL: the same records as on SQLite, emails unique without regard to case.

const pools = twoInstancePools(4);
const clock = new TestClock();

it('creates accounts with defaults, finds them by any case of their email, and refuses a second account for one address', async () => {
  const one = new PgUsersRepository(pools.a, clock);
  const two = new PgUsersRepository(pools.b, clock);
  const ann = await one.create({ email: ' Ann@Example.test ', passwordHash: 'h', fullName: 'Ann' });
  expect(ann).toMatchObject({ email: 'Ann@Example.test', full_name: 'Ann', pro: 0, files_used: 0, files_size: FILE_QUOTA.free, registered: new Date(clock.now()).toISOString() });
  expect(typeof ann.id).toBe('number');
  expect(toUser(ann).config.lang).toBe('en');
  const pro = await two.create({ email: 'pro@example.test', passwordHash: null, pro: true });
  expect(pro.files_size).toBe(FILE_QUOTA.pro);
  expect((await two.byEmail('ann@EXAMPLE.test'))?.id).toBe(ann.id);
  expect(await two.byEmail('nobody@example.test')).toBeUndefined();
  await expect(two.create({ email: 'ANN@example.test', passwordHash: null })).rejects.toBeInstanceOf(DuplicateEmailError);
  expect(await one.count()).toBe(2);
});

it('updates settings (merging config), refuses an email another account has, and records bookmark changes', async () => {
  const repo = new PgUsersRepository(pools.a, clock);
  const bea = await repo.create({ email: 'bea@example.test', passwordHash: null });
  await repo.create({ email: 'cid@example.test', passwordHash: null });
  const changed = await repo.update(bea.id, { fullName: 'Bea', config: { lang: 'de' }, groups: [] });
  expect(changed.full_name).toBe('Bea');
  expect(JSON.parse(changed.config)).toMatchObject({ lang: 'de', bookmarks_view: 'list' });
  const again = await repo.update(bea.id, { config: { font_size: 2 } });
  expect(JSON.parse(again.config)).toMatchObject({ lang: 'de', font_size: 2 });
  await expect(repo.update(bea.id, { email: 'CID@example.test' })).rejects.toBeInstanceOf(DuplicateEmailError);
  expect((await repo.byId(bea.id))?.email).toBe('bea@example.test');
  clock.advance(1000);
  await repo.touchBookmarks(bea.id);
  expect((await repo.byId(bea.id))?.changed_bookmarks_at).toBe(new Date(clock.now()).toISOString());
});
