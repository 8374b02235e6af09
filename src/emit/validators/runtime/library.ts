// A typed module of run-time helpers (helpers.ts, format-checks.ts) read as text and turned into emittable
// JavaScript pieces, one per exported top-level declaration, with the helpers each one calls. The module is
// type-checked and tested as it is; the generated code gets its exported declarations verbatim, types stripped
// (by the same oxc pass that compiles every generated module) and comments left out.
import { readFileSync } from 'node:fs';
import { compileModuleSync } from '../../../write/compile.js';

interface Piece {
  code: string;
  exported: boolean;
  deps: string[];
}

export class HelperLibrary {
  private constructor(
    private readonly file: string,
    /** Every top-level declaration, in file order. */
    private readonly pieces: ReadonlyMap<string, Piece>,
  ) {}

  /**
   * Reads `url` (a helper module). `provided` names what the generated module declares itself (`$vendor`): the
   * helpers may use those names, which the module declares for the type checker without exporting them.
   */
  static read(url: URL, provided: readonly string[] = []): HelperLibrary {
    const file = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
    const { js } = compileModuleSync(file, readFileSync(url, 'utf8'));
    const pieces = splitDeclarations(file, js);
    for (const [name, piece] of pieces) {
      for (const dep of piece.deps)
        if (piece.exported && !pieces.get(dep)!.exported && !provided.includes(dep))
          throw new Error(`${file}: ${name} uses ${dep}, which is neither exported (emitted) nor provided by the generated module`);
    }
    return new HelperLibrary(file, pieces);
  }

  /** Whether `name` is a helper this library can emit. */
  has(name: string): boolean {
    return this.pieces.get(name)?.exported === true;
  }

  /** Source of the requested helpers and the helpers they call, in the module's order. */
  source(used: Iterable<string>): string {
    const all = new Set<string>();
    const add = (name: string): void => {
      if (all.has(name)) return;
      const piece = this.pieces.get(name);
      if (!piece?.exported) throw new Error(`${this.file}: no helper ${name}`);
      all.add(name);
      for (const dep of piece.deps) if (this.pieces.get(dep)!.exported) add(dep);
    };
    for (const name of used) add(name);
    const out: string[] = [];
    for (const [name, piece] of this.pieces) if (all.has(name)) out.push(piece.code);
    return out.join('\n\n');
  }
}

const DECLARATION = /^(export )?(?:function|const) (\$[A-Za-z0-9_]*)\b/;
const NAME = /\$[A-Za-z0-9_]+/g;

/**
 * oxc prints every top-level statement from column 0 and indents everything inside, so a top-level declaration
 * runs from its first line to the next line that starts at column 0 with a letter or a comment (a closing `}`
 * or `});` belongs to it). Whole-line comments are dropped (the text of the module explains the helpers; the
 * generated code stays as short as before).
 */
function splitDeclarations(file: string, js: string): Map<string, Piece> {
  const chunks: { name: string; exported: boolean; lines: string[] }[] = [];
  let inComment = false;
  for (const line of js.split('\n')) {
    const text = line.trim();
    if (inComment || text.startsWith('/*')) {
      inComment = !text.endsWith('*/');
      continue;
    }
    if (text === '' || text.startsWith('//')) continue;
    if (/^[A-Za-z]/.test(line)) {
      const m = DECLARATION.exec(line);
      if (!m) throw new Error(`${file}: unexpected top-level statement ${JSON.stringify(line)} (only $-named functions and consts, no imports)`);
      chunks.push({ name: m[2]!, exported: m[1] !== undefined, lines: [m[1] ? line.slice(m[1].length) : line] });
    } else {
      const last = chunks[chunks.length - 1];
      if (!last) throw new Error(`${file}: unexpected line ${JSON.stringify(line)}`);
      last.lines.push(line);
    }
  }
  const names = new Set(chunks.map((c) => c.name));
  const pieces = new Map<string, Piece>();
  for (const c of chunks) {
    if (pieces.has(c.name)) throw new Error(`${file}: ${c.name} is declared twice`);
    const code = c.lines.join('\n');
    const deps = [...new Set(code.match(NAME) ?? [])].filter((n) => n !== c.name && names.has(n));
    pieces.set(c.name, { code, exported: c.exported, deps });
  }
  return pieces;
}
