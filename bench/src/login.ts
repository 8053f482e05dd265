/**
 * One login's time: the median wall time of `POST /api/login` (argon2id verify, m=19 MiB,
 * t=2, p=1, plus the session insert) over 30 sequential logins on loopback, and the median
 * of the argon2id verify alone in this process.
 * Run: npm run login -w bench
 */
import { hash, verify } from '@node-rs/argon2'
import { ARGON2_OPTIONS } from '@reelgraph/api'
import { median, registerUser, startApp } from './app-process.ts'

const LOGINS = 30
const PASSWORD = 'bench password 1'

const verifyTimes: number[] = []
const phc = await hash(PASSWORD, { ...ARGON2_OPTIONS, algorithm: 2 })
for (let i = 0; i < LOGINS; i++) {
  const t0 = performance.now()
  await verify(phc, PASSWORD)
  verifyTimes.push(performance.now() - t0)
}

const app = await startApp({ port: 3412 })
try {
  const email = `login-${Date.now()}@example.com`
  await registerUser(app.url, email, PASSWORD)
  const loginTimes: number[] = []
  for (let i = 0; i < LOGINS; i++) {
    const t0 = performance.now()
    const res = await fetch(`${app.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url },
      body: JSON.stringify({ email, password: PASSWORD }),
    })
    await res.arrayBuffer()
    if (res.status !== 200) throw new Error(`login failed: ${res.status}`)
    loginTimes.push(performance.now() - t0)
  }
  console.log(
    JSON.stringify(
      {
        benchmark: 'login',
        logins: LOGINS,
        medianLoginMs: Math.round(median(loginTimes) * 10) / 10,
        medianArgon2idVerifyMs: Math.round(median(verifyTimes) * 10) / 10,
      },
      null,
      2,
    ),
  )
} finally {
  await app.stop()
}
