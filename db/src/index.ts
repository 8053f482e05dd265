export * from './create-db.ts'
export * from './schema.ts'
