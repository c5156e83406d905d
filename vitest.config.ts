import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      'tests/unit/**/*.test.{ts,tsx}',
      'tests/stress/**/*.test.ts',
      'tests/security/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two cores: the stress suites spawn their own processes, so keep files from piling up.
    maxWorkers: 2,
  },
})
