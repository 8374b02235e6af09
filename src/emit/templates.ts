// File skeletons live in templates/<artifact>/*.hbs; everything computed is done in TypeScript before
// rendering. Handlebars' HTML escaping stays on, so spec text can never inject markup into a README.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';

const TEMPLATES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'templates');
const cache = new Map<string, Handlebars.TemplateDelegate>();

// `{{{json value}}}`: a value as JSON text, for skeletons of JSON files (package.json).
Handlebars.registerHelper('json', (value: unknown) => new Handlebars.SafeString(JSON.stringify(value)));

export function renderTemplate(name: string, data: object): string {
  let template = cache.get(name);
  if (!template) {
    template = Handlebars.compile(readFileSync(join(TEMPLATES, name), 'utf8'), { strict: true });
    cache.set(name, template);
  }
  return template(data);
}
