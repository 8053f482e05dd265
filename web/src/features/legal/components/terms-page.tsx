import { INITIAL_CREDITS, MINIMUM_AGE_YEARS } from '@reelgraph/shared'
import { Link } from 'wouter'
import { LEGAL_INFO } from '../legal-info'
import { LegalPage } from './legal-page'

/** /terms: the terms of service, with "Back to Home" (spec §2). */
export function TermsPage() {
  const { contactEmail } = LEGAL_INFO
  return (
    <LegalPage title="Terms of Service" lastUpdated={LEGAL_INFO.lastUpdated}>
      <p>
        These terms govern your use of Reelgraph. By creating an account or using the service you
        agree to them. If you do not agree, please do not use Reelgraph.
      </p>

      <section className="flex flex-col gap-3">
        <h2>1. What Reelgraph does</h2>
        <p>
          Reelgraph is a web application for producing video content with the help of AI. You build
          a graph of nodes on a canvas: a script generator writes a script from your topic, style,
          tone and format; a text node splits the script into scenes; scene nodes hold narration and
          visual instructions; an image generator creates images from prompts. Your projects are
          saved to the cloud as you work.
        </p>
      </section>

      <section className="flex flex-col gap-3">
        <h2>2. Your account</h2>
        <ul>
          <li>
            You must be at least {MINIMUM_AGE_YEARS} years old to use Reelgraph, and old enough in
            your country to agree to these terms.
          </li>
          <li>Give us a real name and an email address you control, and keep them current.</li>
          <li>
            Keep your password to yourself. You are responsible for what happens under your account;
            tell us at once at <a href={`mailto:${contactEmail}`}>{contactEmail}</a> if you think
            someone else has used it.
          </li>
          <li>One person per account. Accounts may not be sold or transferred.</li>
        </ul>
      </section>

      <section className="flex flex-col gap-3">
        <h2>3. Credits, subscriptions and payments</h2>
        <ul>
          <li>
            AI actions (writing a script, generating scenes, generating an image) cost credits. The
            cost is shown before you start an action. A new account starts with {INITIAL_CREDITS}{' '}
            credits.
          </li>
          <li>
            Paid plans are monthly subscriptions billed in advance. Their credits are added as soon
            as a payment succeeds, reset at the start of each billing cycle and do not roll over.
          </li>
          <li>
            Credit packages are one-time purchases. Their credits never expire while your account
            exists.
          </li>
          <li>
            Payments are processed by our card payment provider; we never see or store your card
            number.
          </li>
          <li>
            You can change or cancel your plan at any time from the Subscription page. A
            cancellation takes effect at the end of the paid period and you keep the plan until
            then. Downgrades also take effect at the end of the period.
          </li>
          <li>
            If a generation fails on our side, the credits it used are returned to your balance.
            Credits have no cash value and are not refundable, except where the law says otherwise.
          </li>
        </ul>
      </section>

      <section className="flex flex-col gap-3">
        <h2>4. Acceptable use</h2>
        <p>You agree not to use Reelgraph to:</p>
        <ul>
          <li>break the law or infringe anyone's rights, including copyright and privacy;</li>
          <li>
            create content that sexualises minors, promotes violence or terrorism, harasses or
            threatens people, or deceives people about real events or real persons;
          </li>
          <li>
            impersonate others, or pass off AI-generated material as real footage of real people
            without their consent;
          </li>
          <li>
            probe, overload or attack the service, get around its limits or credit system, or access
            other people's accounts or projects;
          </li>
          <li>resell the service or automate it beyond the normal use of the app.</li>
        </ul>
        <p>
          We may suspend or close accounts that break these rules, and remove the content concerned.
        </p>
      </section>

      <section className="flex flex-col gap-3">
        <h2>5. AI-generated content</h2>
        <ul>
          <li>
            You own what you put into Reelgraph and, as far as the law allows, the scripts, scenes
            and images generated for you. You give us only the rights we need to store, process and
            show that content to you and the people you share a project with.
          </li>
          <li>
            AI output can be wrong, biased or similar to existing works. Review it before you
            publish it; you are responsible for how you use it.
          </li>
          <li>
            To produce results, your prompts and project text are sent to the AI provider that
            performs the generation. We do not use your content to train AI models.
          </li>
        </ul>
      </section>

      <section className="flex flex-col gap-3">
        <h2>6. Availability and changes</h2>
        <p>
          We work to keep Reelgraph available and your projects safe, but the service is provided
          "as is", without guarantees of uninterrupted availability. We may change features; if a
          change takes away something you paid for, we will tell you in advance and you may cancel.
        </p>
      </section>

      <section className="flex flex-col gap-3">
        <h2>7. Ending the agreement</h2>
        <p>
          You can stop using Reelgraph and ask us to delete your account at any time. We may end
          these terms for an account that seriously or repeatedly breaks them. On closure, unused
          credits lapse and your data is deleted as described in the{' '}
          <Link href="/privacy">Privacy Policy</Link>.
        </p>
      </section>

      <section className="flex flex-col gap-3">
        <h2>8. Liability</h2>
        <p>
          To the extent the law allows, we are not liable for indirect or consequential losses, and
          our total liability to you is limited to what you paid us in the twelve months before the
          claim. Nothing in these terms limits rights you have as a consumer that cannot be limited
          by contract.
        </p>
      </section>

      <section className="flex flex-col gap-3">
        <h2>9. Changes to these terms</h2>
        <p>
          If we change these terms in a way that matters, we will tell you by email or in the app
          before the change applies. Continuing to use Reelgraph afterwards means you accept the new
          terms.
        </p>
      </section>

      <section className="flex flex-col gap-3">
        <h2>10. Contact</h2>
        <p>
          Questions about these terms? Write to{' '}
          <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
        </p>
      </section>
    </LegalPage>
  )
}
