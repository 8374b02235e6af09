// The error codes of the API, the one spec-derived module of the runtime: the generator emits this file from the
// spec (the `code` enum of the error answers' schemas), replacing this stand-in, which is what the runtime is
// type-checked and tested against (an API whose spec lists no codes).

/** The `code` values the API's error answers declare. */
export type ApiErrorCode = string;

/** The same codes as a value, to recognise them at run time; `undefined` when the spec lists none. */
export const API_ERROR_CODES: readonly string[] | undefined = undefined;
