import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../api/errors';
import { SPEND_PATHS, budgetsSchema, type Budgets } from '../../api/spend';
import type { TeamView } from '../../api/teams';
import { PageHeader } from '../../components/Page';
import { Widget } from '../../components/Widget';
import { ErrorState } from '../../components/states';
import { useAppConfig } from '../../data/config';
import { useReader } from '../../data/me';
import { useLinkTo } from '../../data/search';
import { budgetsQuery, SPEND_KEY } from '../../data/spend';
import { teamsQuery } from '../../data/teams';
import { formatMoney } from '../../lib/money';
import { NoTeams } from './NoTeams';
import { sendJson } from './send';

const TITLE = 'Monthly budgets';
const primaryClass =
  'rounded bg-accent px-3 py-1.5 text-sm font-medium text-fg-inverse hover:bg-accent-strong disabled:cursor-not-allowed disabled:opacity-50';

interface Line {
  team: string;
  label: string;
  depth: number;
}

/** The organization, then every team in tree order. */
function lines(teams: readonly TeamView[]): Line[] {
  const out: Line[] = [{ team: '', label: 'Whole organization', depth: 0 }];
  const walk = (ts: readonly TeamView[], depth: number) => {
    for (const t of ts) {
      out.push({ team: t.path, label: t.name, depth });
      walk(t.children, depth + 1);
    }
  };
  walk(teams, 1);
  return out;
}

/**
 * Monthly budgets per team, in the price list's currency, set by admins (`PUT /api/spend/budgets`) and
 * read by managers; the teams page and each team's page show each budget's state.
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

function BudgetsForm({ currency }: { currency: string }) {
  const tree = useQuery(teamsQuery);
  const budgets = useQuery(budgetsQuery);
  const { signIn } = useAppConfig();
  const me = useReader();
  const mayEdit = !signIn || me?.role === 'admin';
  const all = useMemo(() => (tree.data ? lines(tree.data.teams) : []), [tree.data]);
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
          <Form key={JSON.stringify(b.budgets)} lines={all} budgets={b} currency={currency} mayEdit={mayEdit} />
        )
      }
    </Widget>
  );
}

function Form({
  lines: all,
  budgets,
  currency,
  mayEdit,
}: {
  lines: Line[];
  budgets: Budgets;
  currency: string;
  mayEdit: boolean;
}) {
  const client = useQueryClient();
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(budgets.budgets.map((b) => [b.team, String(b.monthly)])),
  );
  const [filter, setFilter] = useState('');
  const save = useMutation({
    mutationFn: async () => {
      const list = Object.entries(values)
        .filter(([, v]) => v.trim() !== '')
        .map(([team, v]) => ({ team, monthly: Number(v) }));
      return budgetsSchema.parse(await sendJson('PUT', SPEND_PATHS.budgets, { budgets: list }));
    },
    onSuccess: (saved) => {
      client.setQueryData(budgetsQuery.queryKey, saved);
      void client.invalidateQueries({ queryKey: SPEND_KEY });
    },
  });
  const bad = Object.entries(values).find(([, v]) => v.trim() !== '' && !(Number(v) > 0));
  const q = filter.trim().toLowerCase();
  const shown = q ? all.filter((l) => l.team.toLowerCase().includes(q) || l.label.toLowerCase().includes(q)) : all;
  const set = budgets.budgets.length;

  if (!mayEdit) {
    return (
      <div className="flex flex-col gap-2 text-sm">
        <p role="note" className="rounded bg-surface-muted p-3">
          Only the dashboard’s admins (ADMIN_EMAILS) can change the budgets.
        </p>
        {set === 0 ? (
          <p className="text-fg-muted">No budget is set.</p>
        ) : (
          <ul className="list-disc pl-5">
            {budgets.budgets.map((b) => (
              <li key={b.team}>
                {b.team === '' ? 'Whole organization' : b.team}: {formatMoney(b.monthly, currency)} a month
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  }

  return (
    <form
      className="flex flex-col gap-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        if (!bad) save.mutate();
      }}
    >
      {all.length > 12 && (
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
      <div className="max-h-[28rem] overflow-auto">
        <table className="w-full">
          <caption className="sr-only">Monthly budget per team</caption>
          <thead>
            <tr className="text-left text-fg-subtle">
              <th scope="col" className="py-1 font-medium">
                Team
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Monthly budget ({currency})
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((l) => (
              <tr key={l.team} className="border-t border-line-subtle">
                <th scope="row" className="py-1 text-left font-normal" style={{ paddingLeft: `${l.depth * 1}rem` }}>
                  {q && l.team ? l.team : l.label}
                </th>
                <td className="py-1 text-right">
                  <input
                    type="number"
                    min="0"
                    step="any"
                    inputMode="decimal"
                    aria-label={`Monthly budget of ${l.team === '' ? 'the whole organization' : l.team}`}
                    value={values[l.team] ?? ''}
                    onChange={(e) => setValues((v) => ({ ...v, [l.team]: e.target.value }))}
                    className="w-36 rounded border border-line-strong bg-surface px-2 py-1 text-right tabular-nums"
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {bad && (
        <p role="alert" className="text-danger">
          The budget of {bad[0] === '' ? 'the whole organization' : bad[0]} must be an amount above zero, or empty.
        </p>
      )}
      {save.isError && (
        <div role="alert" className="rounded-md bg-danger-surface p-3 text-danger-fg">
          {save.error instanceof ApiError ? save.error.detail : String(save.error)}
        </div>
      )}
      {save.isSuccess && (
        <p role="status" className="rounded-md bg-success-surface p-3 text-success-fg">
          Saved: {save.data.budgets.length} {save.data.budgets.length === 1 ? 'budget' : 'budgets'} in force.
        </p>
      )}
      <p>
        <button type="submit" className={primaryClass} disabled={save.isPending || bad !== undefined}>
          {save.isPending ? 'Saving…' : 'Save budgets'}
        </button>
      </p>
    </form>
  );
}
