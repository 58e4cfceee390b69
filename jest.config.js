// Jest runs the TypeScript sources as native ES modules through ts-jest.
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: false }],
  },
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  setupFiles: ['<rootDir>/test/helpers/no-network.ts'],
  testTimeout: 30000,
  // The files known to take longest start first when jest has no durations cached (see the file).
  testSequencer: '<rootDir>/scripts/jest-sequencer.mjs',
  reporters: ['default', '<rootDir>/scripts/jest-slowest-files.mjs'],
  // Three workers even on two cores: the tests wait on servers, child processes and timers much
  // of the time (jest's default, one fewer than the cores, runs them one at a time there).
  // TEST_WORKERS=<n> sets another number.
  maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
};
