// Request size limits shared by the readers.

/** The largest body accepted: base64 audio of 200 MB is about 267 MB of text. */
export const MAX_BODY_BYTES = 280 * 1024 * 1024;

/**
 * The deepest nesting of objects and arrays a JSON body may have (the body itself is level 1). The API's
 * documentation names no bound; 100 is far beyond any schema of the API (its deepest declared value is a
 * handful of levels) and free-form fields (metadata) rarely need more, while everything that recurses over a
 * stored value (copies, versions, presenters, validators) stays far from the stack's limit. A deeper body is
 * 400 INVALID_ARGUMENT naming the top-level field (http/json-depth.ts).
 */
export const MAX_BODY_DEPTH = 100;
