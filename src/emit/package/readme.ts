// The README of the generated client package: what is in it and where it came from.
import type { ApiModel } from '../../model/ir.js';
import { renderTemplate } from '../templates.js';

export function clientReadme(model: ApiModel, packageName: string, modules: string[]): string {
  return renderTemplate('client/README.md.hbs', {
    packageName,
    title: model.title,
    operationCount: model.operations.length,
    schemaCount: Object.keys(model.schemas).length,
    modules,
    specs: model.catalog.map((c) => ({ name: c.name, operations: c.operationIds.length, hash: c.hash.slice(0, 12) })),
  });
}
