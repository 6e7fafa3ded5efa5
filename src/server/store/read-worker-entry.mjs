// The store's read worker thread's entry (read-worker.ts starts it): plain JavaScript, so that it starts under
// any runner (tsx, Vitest, node), and loads its TypeScript through tsx's own import.
import { tsImport } from 'tsx/esm/api';

await tsImport('./read-worker-thread.ts', import.meta.url);
