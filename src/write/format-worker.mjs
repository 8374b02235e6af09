// A prettier worker (see format-pool.ts): formats the texts it is sent, in order, and answers each with the
// formatted text or the error. Plain JavaScript so it loads in any runtime without a TypeScript loader.
import { parentPort } from 'node:worker_threads';
import prettier from 'prettier';

// One job at a time (prettier's format is async: without the chain, jobs would interleave and each one's time
// would include the others').
let chain = Promise.resolve();
parentPort.on('message', (job) => {
  chain = chain.then(() => run(job));
});

async function run({ id, text, options }) {
  const started = performance.now();
  try {
    const formatted = await prettier.format(text, options);
    parentPort.postMessage({ id, text: formatted, ms: performance.now() - started });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.message ?? error), ms: performance.now() - started });
  }
}
