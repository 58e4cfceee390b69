// Jest runs the TypeScript sources as native ES modules through ts-jest.
import { testVendorMapper } from './scripts/test-vendor.mjs';

/** @type {import('jest').Config} */
export default {
  // jest's Node environment, in workers that end promptly (see the file).
  testEnvironment: '<rootDir>/test/environment.mjs',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  extensionsToTreatAsEsm: ['.ts'],
  // Kysely, express and express-openapi-validator load from one file each (see the script).
  moduleNameMapper: { ...testVendorMapper(), '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: false }],
  },
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  setupFiles: ['<rootDir>/test/helpers/no-network.ts'],
  testTimeout: 30000,
  // The files known to take longest start first when jest has no durations cached, and the
  // PostgreSQL run leaves out the files that use no engine (see the file). This configuration is
  // the same for both engines: jest keys its cache of compiled files by it, so the PostgreSQL run
  // reuses what the SQLite run compiled.
  testSequencer: '<rootDir>/scripts/jest-sequencer.mjs',
  reporters: ['default', '<rootDir>/scripts/jest-slowest-files.mjs'],
  // Two workers on two cores: the tests wait on servers, child processes and timers much of the
  // time (jest's default, one fewer than the cores, runs them one at a time there); more thrashed.
  // TEST_WORKERS=<n> sets another number.
  maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
  // A worker's heap grows with the files it runs (not all that a file loaded is freed after it):
  // one grew to 2 GB over a run, and every major garbage collection walks all of it. A worker whose
  // heap passes 1 GB after a file is replaced by a fresh one: the SQLite run took 988 s of CPU and
  // 556 s before, 857 s and 478 s after (five replacements), peaking at 1.5 GB instead of 2.7 GB.
  workerIdleMemoryLimit: '1GB',
};
