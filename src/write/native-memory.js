// @ts-check
// oxc-transform and oxfmt are Rust libraries that allocate with mimalloc, which by default keeps memory it has
// freed for a while before returning it to the system, and only returns it when it is next called after that delay.
// A render job's syntax trees and layouts are freed when the job ends, but the next job is often on another native
// thread or never comes, so the memory of every job stayed in the process: on elasticsearch-serverless about 100 MB
// of the peak RSS (measured: peak 450-500 MB with the defaults, 375-380 MB with these settings, same CPU time).
// mimalloc reads its options from the environment when the library is loaded, once per process, so they are set on
// the main thread (a worker thread's process.env is its own copy, which native code does not see) before either
// library is loaded. A value the user set is kept.

/** Makes the native libraries loaded after this call return freed memory to the system at once. */
export function returnNativeMemoryPromptly() {
  // Freed pages go back to the system at once instead of after a delay of 10 ms that only a later call notices.
  process.env.MIMALLOC_PURGE_DELAY ??= '0';
  // Reserved arenas are committed as they are used, not all at once.
  process.env.MIMALLOC_ARENA_EAGER_COMMIT ??= '0';
}
