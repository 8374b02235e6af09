// baseline-sigma-bands: not yet implemented (being written).
import type { Rule } from '../engine/hooks.js';

export const baselineSigmaBands: Rule = {};
