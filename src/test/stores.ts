/**
 * The two engines every store test runs against: the embedded SQLite store (in memory) and a real
 * PostgreSQL database of its own in the test run's throwaway cluster.
 */
import { openStore, type StoreDb } from '../server/store/db';
import { freshDatabase, pgAvailable } from './postgres';

export interface OpenedStore {
  store: StoreDb;
  /** Removes what the store left behind (the PostgreSQL database). */
  drop: () => Promise<void>;
  /** The PostgreSQL URL, to open a second connection to the same store. */
  url?: string;
}

export const STORE_ENGINES = [
  {
    name: 'embedded SQLite',
    available: true,
    open: async (): Promise<OpenedStore> => ({ store: await openStore({ dataDir: ':memory:' }), drop: async () => {} }),
  },
  {
    name: 'PostgreSQL',
    available: pgAvailable(),
    open: async (): Promise<OpenedStore> => {
      const d = (await freshDatabase())!;
      return { store: await openStore({ databaseUrl: d.url }), drop: d.drop, url: d.url };
    },
  },
];
