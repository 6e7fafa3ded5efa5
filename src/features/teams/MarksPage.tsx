import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { MARKS_PATHS, type Mark, type MarkInput } from '../../api/marks';
import type { TeamView } from '../../api/teams';
import { failure, MarkForm, secondaryClass, useAddMark, type MarkScope } from '../../components/MarkForm';
import { PageHeader } from '../../components/Page';
import { Widget } from '../../components/Widget';
import { useAppConfig } from '../../data/config';
import { allMarksQuery, MARKS_KEY, mayWriteMark } from '../../data/marks';
import { useReader, type Me } from '../../data/me';
import { useLinkTo } from '../../data/search';
import { teamsQuery } from '../../data/teams';
import { formatDayLong } from '../../lib/dates';
import { MarkFigures } from './MarkFigures';
import { NoTeams } from './NoTeams';
import { sendJson } from '../../data/send';

const TITLE = 'Marks on the charts';
type Scope = MarkScope;

/** The scopes the reader may write marks for: the organization and every team (admins, no sign-in), or a manager's teams. */
function writableScopes(tree: readonly TeamView[], me: Me | undefined, signIn: boolean): Scope[] {
  const out: Scope[] = mayWriteMark(me, signIn, '') ? [{ team: '', label: 'Whole organization' }] : [];
  const walk = (ts: readonly TeamView[], depth: number) => {
    for (const t of ts) {
      if (mayWriteMark(me, signIn, t.path)) out.push({ team: t.path, label: `${'\u2003'.repeat(depth)}${t.name}` });
      walk(t.children, depth + 1);
    }
  };
  walk(tree, 0);
  return out;
}

const scopeName = (team: string) => (team === '' ? 'Whole organization' : team);

/**
 * Marks on the charts: dated notes (a rollout, a training, a change in how the vendor counts) for the
 * organization or a team, each shown on every chart of its scope with its figures before and after it, and the
 * price list's changes, marked by themselves. Admins write any; a manager their teams'.
 */
export default function MarksPage() {
  const { teams } = useAppConfig();
  const linkTo = useLinkTo();
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        <Link to={linkTo('/teams')} className="text-accent-strong underline">
          ← Teams
        </Link>
      </p>
      <PageHeader title={TITLE} />
      {teams ? <Marks /> : <NoTeams />}
    </div>
  );
}

function Marks() {
  const { signIn, latestDay } = useAppConfig();
  const me = useReader();
  const tree = useQuery(teamsQuery);
  const marks = useQuery(allMarksQuery);
  const scopes = useMemo(() => writableScopes(tree.data?.teams ?? [], me, signIn), [tree.data, me, signIn]);
  const client = useQueryClient();
  const changed = () => client.invalidateQueries({ queryKey: MARKS_KEY });
  const add = useAddMark();
  return (
    <>
      {scopes.length > 0 && (
        <section aria-labelledby="add-mark" className="rounded-lg border border-line bg-surface p-4 shadow-sm">
          <h2 id="add-mark" className="mb-2 text-base font-semibold text-fg">
            Add a mark
          </h2>
          <MarkForm
            scopes={scopes}
            initial={{ day: latestDay, team: scopes[0]!.team, text: '' }}
            submit="Add mark"
            pending={add.isPending}
            error={add.isError ? failure(add.error) : null}
            onSubmit={(m, reset) => add.mutate(m, { onSuccess: reset })}
          />
          {add.isSuccess && (
            <p role="status" className="mt-2 text-sm font-medium text-success-fg">
              Added: it shows on the charts of {add.variables.team === '' ? 'the organization' : add.variables.team}.
            </p>
          )}
        </section>
      )}
      <Widget
        title="Marks"
        description="Each shows on the daily and weekly charts of its scope: the organization’s on every chart, a team’s on its own charts and its sub-teams’. “Before and after” gives its scope’s figures over the whole weeks before and after it."
        query={marks}
        isEmpty={(d) => d.marks.length === 0}
        emptyText="No marks yet."
        csv={(d) => ({
          filename: 'marks.csv',
          header: ['day', 'team', 'text', 'source', 'author'],
          rows: d.marks.map((m) => [m.day, m.team, m.text, m.source, m.author]),
        })}
      >
        {(d) => (
          <ul className="flex flex-col divide-y divide-line-subtle text-sm">
            {d.marks.map((m) => (
              <MarkItem key={m.id} mark={m} scopes={scopes} onChanged={changed} />
            ))}
          </ul>
        )}
      </Widget>
    </>
  );
}

function MarkItem({ mark, scopes, onChanged }: { mark: Mark; scopes: readonly Scope[]; onChanged: () => unknown }) {
  const [editing, setEditing] = useState(false);
  const [open, setOpen] = useState(false);
  const figuresId = useId();
  const save = useMutation({
    mutationFn: (m: MarkInput) => sendJson('PUT', `${MARKS_PATHS.marks}/${encodeURIComponent(mark.id)}`, m),
    onSuccess: async () => {
      setEditing(false);
      await onChanged();
    },
  });
  const remove = useMutation({
    mutationFn: () => sendJson('DELETE', `${MARKS_PATHS.marks}/${encodeURIComponent(mark.id)}`),
    onSuccess: onChanged,
  });
  const what = `the mark of ${formatDayLong(mark.day)}, ${scopeName(mark.team)}`;
  if (editing)
    return (
      <li className="py-3">
        <MarkForm
          scopes={
            scopes.some((s) => s.team === mark.team) ? scopes : [{ team: mark.team, label: mark.team }, ...scopes]
          }
          initial={{ day: mark.day, team: mark.team, text: mark.text }}
          submit="Save"
          pending={save.isPending}
          error={save.isError ? failure(save.error) : null}
          onSubmit={(m) => save.mutate(m)}
          onCancel={() => setEditing(false)}
          label={`Change ${what}`}
        />
      </li>
    );
  return (
    <li className="flex flex-wrap items-start justify-between gap-2 py-3">
      <div className="min-w-0 flex-1 basis-64">
        <p className="text-xs text-fg-muted">
          <span className="font-medium text-fg-soft">{formatDayLong(mark.day)}</span> · {scopeName(mark.team)}
          {mark.author && <> · by {mark.author}</>}
        </p>
        <p className="break-words text-fg">{mark.text}</p>
        {mark.source === 'prices' && (
          <p className="text-xs text-fg-subtle">
            Marked by the price list (PRICES_FILE): it changes with the list, not here.
          </p>
        )}
        {remove.isError && (
          <p role="alert" className="mt-1 text-danger">
            {failure(remove.error)}
          </p>
        )}
      </div>
      <div className="flex gap-2">
        <button
          type="button"
          className={secondaryClass}
          aria-expanded={open}
          aria-controls={open ? figuresId : undefined}
          onClick={() => setOpen((o) => !o)}
          aria-label={`Figures before and after ${what}`}
        >
          Before and after
        </button>
        {mark.editable && (
          <>
            <button
              type="button"
              className={secondaryClass}
              onClick={() => setEditing(true)}
              aria-label={`Edit ${what}`}
            >
              Edit
            </button>
            <button
              type="button"
              className={secondaryClass}
              onClick={() => remove.mutate()}
              aria-disabled={remove.isPending || undefined}
              aria-label={`Remove ${what}`}
            >
              {remove.isPending ? 'Removing…' : 'Remove'}
            </button>
          </>
        )}
      </div>
      {open && (
        <div className="w-full">
          <MarkFigures mark={mark} id={figuresId} />
        </div>
      )}
    </li>
  );
}
