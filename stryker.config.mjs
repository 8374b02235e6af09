// npm run mutation: Stryker mutates the sandbox's hand-written rule modules and request handling; the test
// command is the generated conformance suite run against the sandbox (vitest.mutation.config.ts). The JSON
// report goes to reports/mutation/mutation.json. Not part of npm test (it takes a while).
// The rule modules themselves (not their helper libraries under rules/<topic>/: the WAV/MP3 parser, the voice
// catalogue and the EWMA arithmetic are exercised by the sandbox's own tests, which this command does not run)
// and the request handling (engine/, http/). Not mutated: the node:http listener (http/node-adapter.ts), which
// the suite never reaches because it runs in process through sandbox.fetch (test/sandbox/protocol.test.ts, the
// CLI test and the drills exercise it); the engine's plain tables, context and hook wiring, and the typed request-part
// accessor (engine/request-parts.ts), whose refusal only a rule wired to an operation it does not name can reach
// (test/sandbox/typed-request-parts.test.ts covers it).
const files = process.env.MUTATE
  ? process.env.MUTATE.split(',')
  : ['src/sandbox/rules/*.ts', 'src/sandbox/engine/*.ts', 'src/sandbox/http/*.ts', '!src/sandbox/rules/index.ts', '!src/sandbox/http/node-adapter.ts', '!src/sandbox/http/limits.ts', '!src/sandbox/engine/tables.ts', '!src/sandbox/engine/context.ts', '!src/sandbox/engine/hooks.ts', '!src/sandbox/engine/request-parts.ts'];

export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: files,
  reporters: ['json', 'html', 'clear-text', 'progress'],
  jsonReporter: { fileName: process.env.MUTATION_REPORT ?? 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: (process.env.MUTATION_REPORT ?? 'reports/mutation/mutation.json').replace(/\.json$/, '.html') },
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 2),
  timeoutMS: 30000,
  ignoreStatic: true,
  // Separate temp folders let several partial runs (MUTATE=one file) proceed side by side.
  // Not copied into Stryker's sandbox: other runs' temp folders (they vanish mid-copy), reports, profiles.
  ignorePatterns: ['/.stryker-tmp*', '/reports', '/.prof', '/.sandbox'],
  tempDirName: process.env.STRYKER_TMP ?? '.stryker-tmp',
  cleanTempDir: 'always',
};
