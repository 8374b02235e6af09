// The one key an inferred resource's fixed tree (ResourceRow.fixed) uses for an array property's item template:
// `{ "[]": template }`. The generator writes it (src/emit/server/record-fill.ts) and the sandbox reads it
// (src/sandbox/engine/records.ts); a schema property named "[]" would be mistaken for it, which no spec we know has.
export const FILL_ITEMS = '[]';
