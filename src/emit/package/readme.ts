// The README of the generated client package: what is in it and where it came from.
import type { ApiModel } from '../../model/ir.js';

export function clientReadme(model: ApiModel, modules: string[]): string {
  const specs = model.catalog.map((c) => `| \`${c.name.replace(/[|`\\]/g, '_')}\` | ${c.operationIds.length} | \`${c.hash.slice(0, 12)}\` |`).join('\n');
  return `# @evalplatform/client

Generated from the OpenAPI description of ${model.title.replace(/[<>`]/g, '')} (${model.operations.length} operations, ${Object.keys(model.schemas).length} named schemas).

Modules: ${modules.map((m) => `\`${m}\``).join(', ')}.

| spec | operations | document hash |
|---|---|---|
${specs}
`;
}
