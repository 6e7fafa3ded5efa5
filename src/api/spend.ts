/**
 * The dashboard server's spend endpoints: credits priced by the price list (`PRICES_FILE`), month to
 * date with a forecast to month end, and monthly budgets per team. They exist when the server keeps a
 * store and has a price list; without one the dashboard shows credits only, and no currency anywhere.
 *
 *   GET /api/spend?start&end[&team=A…][&user=ID]   daily credits and spend of the organization, of
 *       the teams named (sub-teams included), or of one user; per model; the month of the latest day
 *       with its forecast and, for the organization or one team, its budget's state
 *   GET /api/spend/teams?start&end[&team=A…]        every team's spend in the range, month and budget
 *   GET /api/spend/budgets                          the budgets set, and the currency
 *   PUT /api/spend/budgets {budgets: [{team, monthly}]}  replaces them all (admins; '' = organization)
 *   GET /api/spend/prices                           the price list in force, and a refused change
 */
import * as z from 'zod/mini';

export const SPEND_PATHS = {
  spend: '/api/spend',
  teams: '/api/spend/teams',
  budgets: '/api/spend/budgets',
  prices: '/api/spend/prices',
} as const;

/** How the forecast is made, in the words the pages show. */
export const FORECAST_METHOD =
  'Month to date, plus the days left at the average day of the last four weeks; the range uses the quietest and the busiest of those weeks.';

const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a YYYY-MM-DD day'));
const rangeSchema = z.object({ start: day, end: day });

export const budgetStatusSchema = z.object({
  budget: z.number(),
  state: z.enum(['on-track', 'at-risk', 'over']),
  /** The day the month passed the budget (`crossingForecast` false) or the forecast's middle will; null if neither. */
  crossing: z.nullable(day),
  crossingForecast: z.boolean(),
});
export type BudgetStatusView = z.infer<typeof budgetStatusSchema>;

export const monthSpendSchema = z.object({
  month: z.string(),
  start: day,
  end: day,
  latest: day,
  daysElapsed: z.number(),
  daysLeft: z.number(),
  monthToDate: z.number(),
  /** The month's total (low, middle, high); null with less than a week of history. */
  forecast: z.nullable(z.object({ low: z.number(), mid: z.number(), high: z.number() })),
  /** Days the forecast's rate was read from. */
  basisDays: z.number(),
  budget: z.nullable(budgetStatusSchema),
  /** Each day's spend from the month's first day to the latest. */
  days: z.array(z.object({ date: day, spend: z.number() })),
});
export type MonthSpend = z.infer<typeof monthSpendSchema>;

export const spendAnswerSchema = z.object({
  currency: z.string(),
  range: rangeSchema,
  teams: z.array(z.string()),
  user: z.nullable(z.string()),
  days: z.array(z.object({ date: day, credits: z.number(), spend: z.number() })),
  credits: z.number(),
  spend: z.number(),
  /** The period of the same length just before; null when it starts before history. */
  previous: z.nullable(z.object({ credits: z.number(), spend: z.number() })),
  models: z.array(z.object({ model: z.string(), tier: z.string(), credits: z.number(), spend: z.number() })),
  month: monthSpendSchema,
  method: z.string(),
});
export type SpendAnswer = z.infer<typeof spendAnswerSchema>;

export const teamSpendRowSchema = z.object({
  /** A team's path, `Unassigned`, or '' for the organization. */
  team: z.string(),
  credits: z.number(),
  spend: z.number(),
  month: monthSpendSchema,
});
export type TeamSpendRow = z.infer<typeof teamSpendRowSchema>;

export const teamsSpendSchema = z.object({
  currency: z.string(),
  range: rangeSchema,
  rows: z.array(teamSpendRowSchema),
  method: z.string(),
});
export type TeamsSpend = z.infer<typeof teamsSpendSchema>;

export const budgetsSchema = z.object({
  currency: z.string(),
  budgets: z.array(z.object({ team: z.string(), monthly: z.number() })),
});
export type Budgets = z.infer<typeof budgetsSchema>;

/** What `PUT /api/spend/budgets` takes: every budget (a team's path, or '' for the organization). */
export const budgetsInputSchema = z.object({ budgets: z.array(z.object({ team: z.string(), monthly: z.number() })) });

export const pricesAnswerSchema = z.object({
  currency: z.string(),
  name: z.nullable(z.string()),
  loadedAt: z.nullable(z.string()),
  entries: z.array(
    z.object({
      from: day,
      perMillionCredits: z.number(),
      model: z.optional(z.string()),
      tier: z.optional(z.string()),
    }),
  ),
  refused: z.nullable(z.object({ at: z.string(), errors: z.array(z.string()) })),
});
export type PricesAnswer = z.infer<typeof pricesAnswerSchema>;
