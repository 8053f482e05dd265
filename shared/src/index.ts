export * from './auth.ts'
export * from './constants.ts'
export * from './errors.ts'
