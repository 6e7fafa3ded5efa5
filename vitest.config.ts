import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 30_000,
    // One real, throwaway PostgreSQL per run (skipped with a notice when not installed): see src/test/postgres.ts.
    globalSetup: ['./src/test/postgres-setup.ts'],
  },
});
