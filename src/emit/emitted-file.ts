// What every emitter returns: files relative to the output root (`generated/`). The writer adds the
// do-not-edit header, compiles `.ts` modules to `.js` + `.d.ts`, formats, and confines paths.

export interface EmittedFile {
  /** Path under the output root, with forward slashes, e.g. `client/types.ts`. */
  path: string;
  contents: string;
  /**
   * `module`: a TypeScript module the writer compiles to `.js` + `.d.ts` (it must satisfy
   * `isolatedDeclarations`: explicit types on every export). `asset`: written as it is (formatted by extension).
   */
  kind: 'module' | 'asset';
}
