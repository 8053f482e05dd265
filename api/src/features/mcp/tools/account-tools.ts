import { defineTool } from '../mcp-tool.ts'

/** The account tools (issue 41 item 2): `GET /api/user/credits`. */

export const getCreditsTool = defineTool({
  name: 'get_credits',
  title: 'Read the credit balance',
  description:
    'Your credit balance: the total, the plan’s monthly credits and the purchased ones (spent after the plan’s). Each generation’s price is in list_models and in the tools’ answers.',
  readOnly: true,
  async run(_input, { actor }) {
    const { plan_credits, purchased_credits } = actor.user
    return {
      credits: plan_credits + purchased_credits,
      planCredits: plan_credits,
      purchasedCredits: purchased_credits,
    }
  },
})
