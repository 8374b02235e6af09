// The render worker (see render.ts): renders the files the main thread posts and posts each file's outputs back,
// one lane fewer than the cores while the main thread is still emitting, then one per core. Everything it loads is
// plain JavaScript (render-jobs.js and what it imports), so it starts in any host without a module loader of its
// own: the generator runs from its bundle or from its TypeScript sources, and a worker thread does not get the main
// thread's loader hooks (registering tsx here cost a hooks thread and about half a second of CPU per run).
import { parentPort } from 'node:worker_threads';
import { collectEvery } from './collect-garbage.js';
import { emptySpans, Lanes, LANES, LANES_WHILE_EMITTING, renderFile } from './render-jobs.js';

/** A collection of this thread's heap every 32 M characters of sources rendered (see collect-garbage.js). */
const rendered = collectEvery(32 * 1024 * 1024);

const run = new Lanes(LANES_WHILE_EMITTING);
const spans = emptySpans();

parentPort.on('message', ({ id, file, emitted }) => {
  if (emitted) {
    run.widen(LANES);
    return;
  }
  renderFile(file, run, spans).then(
    (outputs) => {
      parentPort.postMessage({ id, outputs, ...spans });
      // The source, its compiled and formatted texts and their pieces are garbage once posted (copied to the main
      // thread); on a large spec they are hundreds of megabytes this heap would otherwise keep growing over.
      rendered(file.contents.length);
    },
    (error) => parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error), ...spans }),
  );
});
