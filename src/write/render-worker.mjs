// The render worker (see render.ts): renders the files the main thread posts and posts each file's outputs back,
// one lane fewer than the cores while the main thread is still emitting, then one per core. Plain JavaScript, so it starts in any host: the generator runs from its TypeScript
// sources, and a worker thread does not get the main thread's module loader, so it registers tsx itself (as the
// `tsx` command does) before loading render.ts.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { renderFile, Lanes, LANES, LANES_WHILE_EMITTING, emptySpans } = await import('./render.ts');
const run = new Lanes(LANES_WHILE_EMITTING);
const spans = emptySpans();

parentPort.on('message', ({ id, file, emitted }) => {
  if (emitted) {
    run.widen(LANES);
    return;
  }
  renderFile(file, run, spans).then(
    (outputs) => parentPort.postMessage({ id, outputs, ...spans }),
    (error) => parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error), ...spans }),
  );
});
