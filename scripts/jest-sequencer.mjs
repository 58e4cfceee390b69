// Jest's order of test files (failed last time first, then longest first by the durations jest
// remembers in its cache), except that on a run without remembered durations (a fresh clone, CI)
// the files known to take longest start first instead of after the large ones: a run on two cores
// ends when its longest file does, so that one should not start last.
//
// The PostgreSQL run (TEST_ENGINE=postgres) leaves out the files of test/engine-independent.json
// (no server, no store: the SQLite run has them). Left out here rather than by a jest option: the
// options are the same on both runs, so the PostgreSQL run finds in jest's cache every file the
// SQLite run compiled (its key includes the options) instead of compiling them all again.
import sequencer from '@jest/test-sequencer';
import { readFileSync } from 'node:fs';

const Sequencer = sequencer.default ?? sequencer;

/** The files that take longest (a minute or more against seconds), roughly longest first. */
const LONGEST = [
  'test/contract/generated/mock.test.ts',
  'test/contract/generated/server.test.ts',
  'test/tooling/contract-cli.test.ts',
  'test/contract/boundary.test.ts',
  'test/system/shutdown.test.ts',
  'test/system/two-instances.test.ts',
  'test/contract/examples.test.ts',
  'test/contract/examples-mock.test.ts',
  'test/tooling/spec-diff.test.ts',
];

const ENGINE_INDEPENDENT = JSON.parse(readFileSync(new URL('../test/engine-independent.json', import.meta.url), 'utf8')).files;

const rank = (path) => LONGEST.findIndex((end) => path.endsWith(end));

export default class LongestFirst extends Sequencer {
  sort(all) {
    const tests = process.env.TEST_ENGINE === 'postgres' ? all.filter((test) => !ENGINE_INDEPENDENT.some((file) => test.path.endsWith(`/${file}`))) : all;
    const sorted = super.sort(tests);
    const first = sorted.filter((test) => test.duration == null && rank(test.path) >= 0).sort((a, b) => rank(a.path) - rank(b.path));
    return [...first, ...sorted.filter((test) => !first.includes(test))];
  }
}
