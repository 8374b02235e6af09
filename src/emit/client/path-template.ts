// Splits an OpenAPI path template into URL-ready literal pieces and the parameter names between them, at
// generation time, so the runtime never parses a spec string and a hostile path cannot alter the URL shape.

export interface PathTemplate {
  /** Literal pieces (one more than `params`), percent-encoded where a URL needs it. */
  literals: string[];
  /** Wire names of the path parameters, in path order. */
  params: string[];
}

/** Replace lone surrogates (which `encodeURI` refuses) with U+FFFD. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Encode a literal piece: spaces, quotes, braces, `%`, ... get encoded; `?` and `#` too, so they stay in the path. */
function encodeLiteral(piece: string): string {
  return encodeURI(wellFormed(piece)).replace(/[?#]/g, (c) => encodeURIComponent(c));
}

export function splitPathTemplate(path: string): PathTemplate {
  const literals: string[] = [];
  const params: string[] = [];
  const pattern = /\{([^{}]+)\}/g;
  let last = 0;
  for (const match of path.matchAll(pattern)) {
    literals.push(encodeLiteral(path.slice(last, match.index)));
    params.push(match[1]!);
    last = match.index! + match[0].length;
  }
  literals.push(encodeLiteral(path.slice(last)));
  return { literals, params };
}
