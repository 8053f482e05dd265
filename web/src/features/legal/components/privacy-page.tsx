import { MINIMUM_AGE_YEARS } from '@reelgraph/shared'
import { Link } from 'wouter'
import { LEGAL_INFO } from '../legal-info'
import { LegalPage } from './legal-page'

/** /privacy: the privacy policy, with "Back to Home" (spec §2, minimum age from spec §9). */
export function PrivacyPage() {
  const { contactEmail } = LEGAL_INFO
  return (
    <LegalPage title="Privacy Policy" lastUpdated={LEGAL_INFO.lastUpdated}>
      <p>
        This policy explains what Reelgraph keeps about you, why, and what you can do about it. We
        collect only what we need to run the service, and we do not sell your data or show you ads.
      </p>

      <section className="flex flex-col gap-3">
        <h2>1. What Reelgraph does</h2>
        <p>
          Reelgraph lets you build graphs of AI nodes on a canvas to write scripts, plan scenes and
          generate images for videos. Doing that means storing your account, your projects and a
          record of the credits you use. See the <Link href="/terms">Terms of Service</Link> for the
          rules of the service itself.
        </p>
      </section>

      <section className="flex flex-col gap-3">
        <h2>2. Data we keep and why</h2>
        <ul>
          <li>
            <strong>Account</strong>: your name, your email address, a one-way hash of your password
            (never the password itself), whether your email is verified and when you signed up. We
            use these to sign you in, to write to you about your account (verification, password
            resets, billing) and to show your name in the app.
          </li>
          <li>
            <strong>Projects</strong>: project names, the nodes and connections of each graph, the
            text you write and the images generated for you. We keep them so you can open and edit
            your work from any device.
          </li>
          <li>
            <strong>Usage</strong>: your credit balance and a ledger of credit changes (what kind of
            action, how many credits, when), and the requests you make to generate content. We need
            these to charge credits correctly, to refund failed generations and to answer billing
            questions.
          </li>
          <li>
            <strong>Billing</strong>: your plan, its status and renewal date, and the customer and
            subscription identifiers of our card payment provider. Your card details go straight to
            that provider and never reach our servers.
          </li>
          <li>
            <strong>Security logs</strong>: IP addresses and request times, kept briefly to limit
            repeated sign-in attempts and to investigate abuse.
          </li>
        </ul>
      </section>

      <section className="flex flex-col gap-3">
        <h2>3. Who else processes it</h2>
        <ul>
          <li>
            The AI provider that performs a generation receives the prompt and project text needed
            for it.
          </li>
          <li>Our card payment provider processes payments and subscriptions.</li>
          <li>Our email provider delivers account emails.</li>
        </ul>
        <p>
          Each receives only what its job needs. We do not use your content to train AI models, and
          we never sell or rent personal data.
        </p>
      </section>

      <section className="flex flex-col gap-3">
        <h2>4. Cookies</h2>
        <p>
          Reelgraph sets one cookie: a session cookie that keeps you signed in. It is marked
          HttpOnly, so page scripts cannot read it, and it is deleted when you sign out. We use no
          advertising, analytics or tracking cookies. The browser may also keep a local copy of an
          open project so you can keep working offline; it stays on your device.
        </p>
      </section>

      <section className="flex flex-col gap-3">
        <h2>5. Retention and deletion</h2>
        <ul>
          <li>We keep your account and projects for as long as your account exists.</li>
          <li>
            Password-reset and verification links expire and can be used once; signed-out sessions
            are deleted straight away.
          </li>
          <li>
            You can delete projects at any time. To delete your account, write to{' '}
            <a href={`mailto:${contactEmail}`}>{contactEmail}</a> from your account's email address;
            we delete your account, projects and generated images within 30 days.
          </li>
          <li>
            Payment records are kept for as long as tax and accounting law requires, and then
            deleted.
          </li>
        </ul>
      </section>

      <section className="flex flex-col gap-3">
        <h2>6. Children</h2>
        <p>
          Reelgraph is not meant for children. You must be at least {MINIMUM_AGE_YEARS} years old to
          create an account. If we learn that an account belongs to someone younger, we will delete
          it.
        </p>
      </section>

      <section className="flex flex-col gap-3">
        <h2>7. Your rights</h2>
        <p>
          You can ask for a copy of your data, ask us to correct or delete it, or object to how we
          use it. Write to us and we will answer within 30 days. You can also complain to your local
          data protection authority.
        </p>
      </section>

      <section className="flex flex-col gap-3">
        <h2>8. Security</h2>
        <p>
          Connections are encrypted, passwords are hashed with a modern slow hash, and access to
          projects is checked on every request. No system is perfectly secure; if a breach affects
          you, we will tell you promptly.
        </p>
      </section>

      <section className="flex flex-col gap-3">
        <h2>9. Contact</h2>
        <p>
          Questions or requests about your privacy:{' '}
          <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
        </p>
      </section>
    </LegalPage>
  )
}
