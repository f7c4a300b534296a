import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderOpenApiYaml } from './openapi-document';

/** Writes openapi.yaml from the API's decorators: `node dist/openapi.js <file>`. */
async function main(): Promise<void> {
  const target = path.resolve(process.argv[2] ?? 'openapi.yaml');
  fs.writeFileSync(target, await renderOpenApiYaml());
  console.log(`OpenAPI document written to ${target}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
