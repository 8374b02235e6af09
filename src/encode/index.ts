// The one encoder (DESIGN.md section 4): every spec-derived value reaches generated code through here.
export { jsString, jsValue, propertyKey, propertyAccess, tsStringType } from './literal.js';
export { commentText, jsDoc } from './comment.js';
export { typeName, valueName, uniqueNames, words } from './identifier.js';
export { fileSegment, confinedPath } from './path.js';
