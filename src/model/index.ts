export { buildModel, type BuildOptions, type Policy } from './build.js';
export type { KnownNames } from './vocabulary.js';
export type * from './ir.js';
