// Jest's order of test files (failed last time first, then longest first by the durations jest
// remembers in its cache), except that on a run without remembered durations (a fresh clone, CI)
// the files known to take longest start first instead of after the large ones: a run on two cores
// ends when its longest file does, so that one should not start last.
import sequencer from '@jest/test-sequencer';

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

const rank = (path) => LONGEST.findIndex((end) => path.endsWith(end));

export default class LongestFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const first = sorted.filter((test) => test.duration == null && rank(test.path) >= 0).sort((a, b) => rank(a.path) - rank(b.path));
    return [...first, ...sorted.filter((test) => !first.includes(test))];
  }
}
