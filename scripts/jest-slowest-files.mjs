// A jest reporter: at the end of a run of several files, the ten that took longest, so that a slow
// run says where its time went. With TEST_SUMMARY_FILE set it also writes the run's counts and
// every file's time there as JSON (scripts/test.mjs reads it to report both engines' runs).
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

export default class SlowestFiles {
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.count = options.count ?? 10;
    // Read here, in jest's own process, and removed: its workers, and the jest runs some tests
    // start (scripts/contract.mjs), must not write their results over this run's.
    this.summaryFile = process.env.TEST_SUMMARY_FILE;
    delete process.env.TEST_SUMMARY_FILE;
  }

  onRunComplete(_contexts, results) {
    const files = results.testResults
      .map((file) => ({
        path: relative(this.rootDir, file.testFilePath),
        startedAt: Math.max(0, (file.perfStats.start - results.startTime) / 1000),
        seconds: Math.max(0, (file.perfStats.end - file.perfStats.start) / 1000),
        tests: file.numPassingTests + file.numFailingTests + file.numPendingTests + file.numTodoTests,
        failed: file.numFailingTests > 0 || Boolean(file.testExecError),
      }))
      .sort((a, b) => b.seconds - a.seconds);
    if (this.summaryFile) {
      const summary = {
        passed: results.numPassedTests,
        failed: results.numFailedTests,
        skipped: results.numPendingTests + results.numTodoTests,
        // Files that failed without a failing test (an import error, a failing hook before any test).
        brokenFiles: results.testResults.filter((file) => file.numFailingTests === 0 && (file.testExecError || file.failureMessage)).length,
        success: results.success && !results.wasInterrupted,
        seconds: (Date.now() - results.startTime) / 1000,
        files,
      };
      writeFileSync(this.summaryFile, JSON.stringify(summary));
    }
    if (files.length < 2) return;
    const lines = files
      .slice(0, this.count)
      .map((f) => `  ${f.seconds.toFixed(1).padStart(6)} s  ${String(f.tests).padStart(4)} tests  ${f.path}${f.failed ? '  (failed)' : ''}`);
    process.stderr.write(`\nSlowest ${lines.length} test files:\n${lines.join('\n')}\n`);
  }
}
