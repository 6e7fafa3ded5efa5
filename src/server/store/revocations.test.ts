import { afterAll, describe, expect, it } from 'vitest';
import { STORE_ENGINES, type OpenedStore } from '../../test/stores';
import { openStore } from './db';
import { storeRevocations } from './revocations';

describe.each(STORE_ENGINES)('sessions signed out of, in the $name store', ({ available, open }) => {
  const opened: OpenedStore[] = [];
  afterAll(async () => {
    for (const o of opened) {
      await o.store.close();
      await o.drop();
    }
  });

  it.skipIf(!available)(
    'are refused until their cookies would have expired, on every server sharing the store',
    async () => {
      const o = await open();
      opened.push(o);
      const here = storeRevocations(o.store.db);
      const t = Math.floor(Date.now() / 1000);
      await here.add('s-1', t + 3600);
      await here.add('s-1', t + 3600); // the same sign-out twice
      await here.add('old', t - 1);
      expect(await here.has('s-1')).toBe(true);
      expect(await here.has('old')).toBe(false);
      expect(await here.has('never')).toBe(false);
      // What another replica sees: another connection to the same store, where there is one.
      const other = o.url ? await openStore({ databaseUrl: o.url }) : undefined;
      expect(await storeRevocations((other ?? o.store).db).has('s-1')).toBe(true);
      await other?.close();
      // Expired ones are cleared as others are added.
      await here.add('s-2', t + 60);
      const left = await o.store.db.selectFrom('revoked_session').select('id').orderBy('id').execute();
      expect(left.map((r) => r.id)).toEqual(['s-1', 's-2']);
    },
  );
});
