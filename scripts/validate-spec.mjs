// Quick structural check of spec documents with swagger-parser (resolves the relative $refs to _shared.yaml).
// Usage: node scripts/validate-spec.mjs spec/tags.yaml [more files...]
import SwaggerParser from '@apidevtools/swagger-parser';
for (const file of process.argv.slice(2)) {
  try {
    const api = await SwaggerParser.validate(file);
    const ops = Object.values(api.paths ?? {}).flatMap((item) => Object.keys(item).filter((k) => ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'].includes(k)));
    console.log(`OK ${file}: ${ops.length} operations`);
  } catch (error) {
    console.log(`FAIL ${file}: ${error.message}`);
    process.exitCode = 1;
  }
}
