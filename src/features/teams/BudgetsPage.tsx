import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../api/errors';
import { SPEND_PATHS, budgetsSchema, type Budgets, type MonthSpend as Month, type TeamSpendRow } from '../../api/spend';
import { UNASSIGNED, type TeamView } from '../../api/teams';
import { BudgetBadge, budgetWhen } from '../../components/MonthSpend';
import { PageHeader } from '../../components/Page';
import { Widget } from '../../components/Widget';
import { ErrorState } from '../../components/states';
import { useAppConfig } from '../../data/config';
import { useReader } from '../../data/me';
import { useLinkTo, useRange } from '../../data/search';
import { budgetsQuery, SPEND_KEY, teamsSpendQuery } from '../../data/spend';
import { formatDayShort } from '../../lib/dates';
import { teamsQuery } from '../../data/teams';
import { formatMoneyExact, moneyFormat } from '../../lib/money';
import { NoTeams } from './NoTeams';
import { sendJson } from '../../data/send';

const TITLE = 'Monthly budgets';
const primaryClass =
  'rounded bg-accent px-3 py-1.5 text-sm font-medium text-fg-inverse hover:bg-accent-strong disabled:cursor-not-allowed disabled:opacity-50';

interface Line {
  team: string;
  label: string;
  depth: number;
}

/** The organization, then every team in tree order, then the people no team names. */
function lines(teams: readonly TeamView[]): Line[] {
  const out: Line[] = [{ team: '', label: 'Whole organization', depth: 0 }];
  const walk = (ts: readonly TeamView[], depth: number) => {
    for (const t of ts) {
      out.push({ team: t.path, label: t.name, depth });
      walk(t.children, depth + 1);
    }
  };
  walk(teams, 1);
  if (teams.length > 0) out.push({ team: UNASSIGNED, label: 'Unassigned (no team)', depth: 1 });
  return out;
}

/**
 * Monthly budgets per team, in the price list's currency, set by admins (`PUT /api/spend/budgets`) and
 * read by managers, each beside the team's month to date, its forecast to month end and the budget's
 * state (`/api/spend/teams`, as the teams page shows them).
 */
export default function BudgetsPage() {
  const { teams, currency } = useAppConfig();
  const linkTo = useLinkTo();
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        <Link to={linkTo('/teams')} className="text-accent-strong underline">
          ← Teams
        </Link>
      </p>
      <PageHeader title={TITLE} />
      {!teams ? (
        <NoTeams />
      ) : currency === null ? (
        <p role="status" className="rounded bg-warning-surface p-3 text-sm text-warning-fg">
          Budgets are amounts of money: they need the price list the dashboard server reads from its{' '}
          <code>PRICES_FILE</code> setting. Without it the dashboard shows credits only.
        </p>
      ) : (
        <BudgetsForm currency={currency} />
      )}
    </div>
  );
}

/** Budgets as the form's text boxes hold them. */
const asValues = (b: Budgets['budgets']): Record<string, string> =>
  Object.fromEntries(b.map((x) => [x.team, String(x.monthly)]));

/** The budgets the boxes say (empty boxes dropped), to send, and to compare with those in force. */
const filled = (values: Record<string, string>) =>
  Object.entries(values)
    .filter(([, v]) => v.trim() !== '')
    .map(([team, v]) => ({ team, monthly: Number(v) }));

/** Whether the boxes say something else than the budgets in force. */
function differs(values: Record<string, string>, budgets: Budgets['budgets']): boolean {
  const now = filled(values);
  const inForce = new Map(budgets.map((b) => [b.team, b.monthly]));
  return now.length !== inForce.size || now.some((b) => inForce.get(b.team) !== b.monthly);
}

const who = (team: string) => (team === '' ? 'the whole organization' : team);

function BudgetsForm({ currency }: { currency: string }) {
  const tree = useQuery(teamsQuery);
  const budgets = useQuery(budgetsQuery);
  const { range } = useRange();
  const spend = useQuery({ ...teamsSpendQuery(range), placeholderData: keepPreviousData });
  const { signIn } = useAppConfig();
  const me = useReader();
  const mayEdit = !signIn || me?.role === 'admin';
  const all = useMemo(() => (tree.data ? lines(tree.data.teams) : []), [tree.data]);
  const rows = useMemo(() => new Map(spend.data?.rows.map((r) => [r.team, r])), [spend.data]);
  const m = spend.data?.rows[0]?.month;
  return (
    <Widget
      title={TITLE}
      description={`In ${currency}, for every month. A team’s budget covers its sub-teams’ spend too. Leave a box empty for no budget.`}
      query={budgets}
    >
      {(b) =>
        tree.isError ? (
          <ErrorState error={tree.error} onRetry={() => void tree.refetch()} />
        ) : (
          <div className="flex flex-col gap-3 text-sm">
            {m && (
              <p className="text-fg-muted">
                {monthName(m.month)}: spent from {formatDayShort(m.start)} to {formatDayShort(m.latest)}, the forecast
                to {formatDayShort(m.end)} (from the quietest to the busiest of the last four weeks), and each budget’s
                state.
              </p>
            )}
            {spend.isError && <ErrorState error={spend.error} onRetry={() => void spend.refetch()} />}
            <Form lines={all} budgets={b} currency={currency} mayEdit={mayEdit} spendOf={(t) => rows.get(t)} />
          </div>
        )
      }
    </Widget>
  );
}

const monthName = (m: string) =>
  new Date(`${m}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** Each money column's one format (moneyFormat's rule over the column's amounts): whole units, or cents in every cell. */
interface Formats {
  toDate: (n: number) => string;
  forecast: (n: number) => string;
  budget: (n: number) => string;
}

function columnFormats(currency: string, months: readonly Month[], budgets: readonly number[]): Formats {
  const { forColumn } = moneyFormat(currency);
  return {
    toDate: forColumn(months.map((m) => m.monthToDate)),
    forecast: forColumn(months.flatMap((m) => (m.forecast ? [m.forecast.low, m.forecast.mid, m.forecast.high] : []))),
    budget: forColumn(budgets),
  };
}

/** An amount in its column's format, exact on hover. */
function Amount({
  value,
  format,
  currency,
}: {
  value: number | undefined;
  format: (n: number) => string;
  currency: string;
}) {
  if (value === undefined) return <span className="text-fg-subtle">–</span>;
  return (
    <span className="tabular-nums" title={formatMoneyExact(value, currency)}>
      {format(value)}
    </span>
  );
}

/** A team's month in three cells (wide screens), or in two lines under its name (phones). */
function MonthCells({
  row,
  currency,
  formats: f,
  compact,
}: {
  row: TeamSpendRow | undefined;
  currency: string;
  formats: Formats;
  compact?: boolean;
}) {
  const m = row?.month;
  const state = m?.budget ? (
    <span className="inline-flex flex-wrap items-center gap-x-1.5">
      <BudgetBadge status={m.budget} currency={currency} />
      {budgetWhen(m.budget) && <span className="text-xs text-fg-subtle">{budgetWhen(m.budget)}</span>}
    </span>
  ) : (
    <span className="text-fg-subtle">No budget</span>
  );
  const forecast = m?.forecast ? `${f.forecast(m.forecast.low)} – ${f.forecast(m.forecast.high)}` : '–';
  if (compact)
    return (
      <span className="mt-0.5 flex flex-col gap-0.5 text-xs text-fg-muted sm:hidden">
        <span className="tabular-nums">
          {m ? f.toDate(m.monthToDate) : '–'} to date · forecast {forecast}
        </span>
        {state}
      </span>
    );
  return (
    <>
      <td className="hidden py-1 pr-3 text-right tabular-nums sm:table-cell">{m ? f.toDate(m.monthToDate) : '–'}</td>
      <td className="hidden py-1 pr-3 text-right sm:table-cell">
        <span className="tabular-nums">{forecast}</span>
        {m?.forecast && (
          <span className="block text-xs text-fg-subtle tabular-nums">most likely {f.forecast(m.forecast.mid)}</span>
        )}
      </td>
      <td className="hidden py-1 pr-3 sm:table-cell">{state}</td>
    </>
  );
}

function Form({
  lines: all,
  budgets,
  currency,
  mayEdit,
  spendOf,
}: {
  lines: Line[];
  budgets: Budgets;
  currency: string;
  mayEdit: boolean;
  spendOf: (team: string) => TeamSpendRow | undefined;
}) {
  const client = useQueryClient();
  const [values, setValues] = useState(() => asValues(budgets.budgets));
  // Budgets in force that change under the form (saved here, or elsewhere) fill the boxes, unless they hold edits.
  const [inForce, setInForce] = useState(budgets.budgets);
  if (inForce !== budgets.budgets) {
    setInForce(budgets.budgets);
    if (!differs(values, inForce)) setValues(asValues(budgets.budgets));
  }
  const [filter, setFilter] = useState('');
  const save = useMutation({
    mutationFn: async () =>
      budgetsSchema.parse(await sendJson('PUT', SPEND_PATHS.budgets, { budgets: filled(values) })),
    onSuccess: (saved) => {
      client.setQueryData(budgetsQuery.queryKey, saved);
      void client.invalidateQueries({ queryKey: SPEND_KEY });
    },
  });
  const bad = Object.entries(values).find(([, v]) => v.trim() !== '' && !(Number(v) > 0));
  const edited = differs(values, budgets.budgets);
  const q = filter.trim().toLowerCase();
  const shown = (mayEdit ? all : all.filter((l) => budgets.budgets.some((b) => b.team === l.team))).filter(
    (l) => !q || l.team.toLowerCase().includes(q) || l.label.toLowerCase().includes(q),
  );
  const th = 'py-1 pr-3 font-medium';
  const budgetOf = (team: string) => budgets.budgets.find((b) => b.team === team)?.monthly;
  const formats = columnFormats(
    currency,
    shown.flatMap((l) => spendOf(l.team)?.month ?? []),
    shown.flatMap((l) => budgetOf(l.team) ?? []),
  );

  return (
    <form
      className="flex flex-col gap-3"
      aria-label="Monthly budgets"
      onSubmit={(e) => {
        e.preventDefault();
        if (mayEdit && !bad && !save.isPending) save.mutate();
      }}
    >
      {!mayEdit && (
        <p role="note" className="rounded bg-surface-muted p-3">
          Only the dashboard’s admins (ADMIN_EMAILS) can change the budgets.
        </p>
      )}
      {all.length > 12 && mayEdit && (
        <label className="flex items-center gap-2">
          <span className="text-fg-muted">Filter teams</span>
          <input
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            className="rounded border border-line-strong bg-surface px-2 py-1"
          />
        </label>
      )}
      {!mayEdit && shown.length === 0 ? (
        <p className="text-fg-muted">No budget is set.</p>
      ) : (
        <div className="max-h-[32rem] overflow-auto">
          <table className="w-full">
            <caption className="sr-only">Monthly budget per team, with this month’s spend and forecast</caption>
            <thead className="sticky top-0 bg-surface">
              <tr className="text-left text-fg-subtle">
                <th scope="col" className={th}>
                  Team
                </th>
                <th scope="col" className={`${th} hidden text-right sm:table-cell`}>
                  Month to date
                </th>
                <th scope="col" className={`${th} hidden text-right sm:table-cell`}>
                  Forecast to month end
                </th>
                <th scope="col" className={`${th} hidden sm:table-cell`}>
                  State
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Monthly budget ({currency})
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((l) => (
                <tr key={l.team} className="border-t border-line-subtle align-top">
                  <th
                    scope="row"
                    className="py-1 pr-3 text-left font-normal"
                    style={{ paddingLeft: `${(q ? 0 : l.depth) * 1}rem` }}
                  >
                    {(q || !mayEdit) && l.team && l.team !== UNASSIGNED ? l.team : l.label}
                    <MonthCells row={spendOf(l.team)} currency={currency} formats={formats} compact />
                  </th>
                  <MonthCells row={spendOf(l.team)} currency={currency} formats={formats} />
                  <td className="py-1 text-right">
                    {mayEdit ? (
                      <input
                        type="number"
                        min="0"
                        step="any"
                        inputMode="decimal"
                        aria-label={`Monthly budget of ${who(l.team)}`}
                        value={values[l.team] ?? ''}
                        onChange={(e) => setValues((v) => ({ ...v, [l.team]: e.target.value }))}
                        className="w-28 rounded border border-line-strong bg-surface px-2 py-1 text-right tabular-nums sm:w-36"
                      />
                    ) : (
                      <Amount value={budgetOf(l.team)} format={formats.budget} currency={currency} />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {bad && (
        <p role="alert" className="text-danger">
          The budget of {who(bad[0])} must be an amount above zero, or empty.
        </p>
      )}
      {save.isError && (
        <div role="alert" className="rounded-md bg-danger-surface p-3 text-danger-fg">
          {save.error instanceof ApiError ? save.error.detail : String(save.error)}
        </div>
      )}
      {mayEdit && (
        <div className="flex flex-wrap items-center gap-3">
          {/* Not disabled while saving: a disabled button would drop the keyboard focus. */}
          <button
            type="submit"
            className={primaryClass}
            disabled={bad !== undefined}
            aria-disabled={save.isPending || undefined}
          >
            {save.isPending ? 'Saving…' : 'Save budgets'}
          </button>
          <p role="status" className={edited ? 'text-fg-muted' : 'font-medium text-success-fg'}>
            {edited
              ? 'Unsaved changes.'
              : save.isSuccess
                ? `Saved: ${budgets.budgets.length} ${budgets.budgets.length === 1 ? 'budget' : 'budgets'} in force.`
                : ''}
          </p>
        </div>
      )}
    </form>
  );
}
