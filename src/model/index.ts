export { buildModel, type BuildOptions, type Policy } from './build.js';
export type * from './ir.js';
