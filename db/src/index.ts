export * from './create-db.ts'
export * from './schema.ts'
export * from './sessions.ts'
export * from './tokens.ts'
