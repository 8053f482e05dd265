/**
 * `node e2e/support/reset-database.ts <postgres-url>`: drops the database the URL names (if it
 * exists) and creates it empty, so the two-server browser tests start from nothing. Setup
 * only: it connects to the server's `postgres` database to do so.
 */
import pg from 'pg'

const target = process.argv[2]
if (!target) throw new Error('usage: node e2e/support/reset-database.ts <postgres-url>')
const url = new URL(target)
const name = decodeURIComponent(url.pathname.slice(1))
if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected database name "${name}"`)
url.pathname = '/postgres'
const client = new pg.Client({ connectionString: url.toString() })
await client.connect()
try {
  await client.query(`drop database if exists ${name} with (force)`)
  await client.query(`create database ${name}`)
} finally {
  await client.end()
}
