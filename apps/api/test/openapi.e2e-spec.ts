import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderOpenApiYaml } from '../src/openapi-document';

describe('openapi.yaml', () => {
  it('is what the code produces (run `npm run openapi` after changing the API)', async () => {
    const committed = fs.readFileSync(path.resolve(__dirname, '../../../openapi.yaml'), 'utf8');
    const produced = await renderOpenApiYaml();
    expect(committed).toBe(produced);
  });
});
