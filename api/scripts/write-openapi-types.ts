import { writeFile } from 'node:fs/promises'
import { API_SCHEMA_FILE, openApiTypes, readOpenApiDocument } from './openapi-types.ts'

// `npm run openapi -w api`: writes the web's typed contract with the api (issue 41 item 4) from
// the OpenAPI document the api serves now. Commit the file with the route change.
await writeFile(API_SCHEMA_FILE, await openApiTypes(await readOpenApiDocument()))
console.log(`Wrote ${API_SCHEMA_FILE}`)
