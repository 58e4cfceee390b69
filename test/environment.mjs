// The test files' environment: jest's Node environment, in a worker that ends promptly.
// A jest worker that has run many files holds a heap of up to a gigabyte (jest.config.js replaces
// it beyond that). When the run is over, the worker's event loop empties at once, but Node's
// orderly teardown of that heap can outlast jest's half-second grace: jest then kills the worker
// and warns of a leak that is none. Ending with process.exit() in the worker's 'exit' event, after
// the other listeners, skips that teardown (a 2.4 GB process: 670 ms to gone, 440 ms with it).
import jestEnvironmentNode from 'jest-environment-node';

const { TestEnvironment: NodeEnvironment } = jestEnvironmentNode;
/** A jest worker is a child process with a channel to jest; a run in band is not. */
const inWorker = typeof process.send === 'function';
const endNow = () => process.exit();

export default class TestEnvironment extends NodeEnvironment {
  async teardown() {
    await super.teardown();
    // Listed again after each file, so that it runs after any listener added meanwhile.
    if (inWorker) {
      process.removeListener('exit', endNow);
      process.on('exit', endNow);
    }
  }
}
