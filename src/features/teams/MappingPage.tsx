import { useMe } from '../../data/me';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { MappingText, TeamsAnswer } from '../../api/teams';
import { PageHeader } from '../../components/Page';
import { Widget } from '../../components/Widget';
import { ErrorState, Loading } from '../../components/states';
import { useAppConfig } from '../../data/config';
import { useLinkTo } from '../../data/search';
import { teamsQuery } from '../../data/teams';
import { formatDayLong } from '../../lib/dates';
import { DEFINITIONS, notYetSeen, people } from '../../lib/definitions';
import { formatExact } from '../../lib/format';
import { DefinitionTip } from '../../components/Definition';
import { ExportPanel } from './ExportPanel';
import { NoTeams } from './NoTeams';
import { invalidateTeamScoped, mappingTextQuery, removeMapping, saveMapping, type NewMapping } from './mapping-queries';
import { MappingRefusedError, type MappingProblem } from '../../data/send';
import { countTeams } from './shaping';

const TITLE = 'Team mapping';

const buttonClass =
  'rounded border border-line-strong px-3 py-1.5 text-sm font-medium text-fg-soft hover:bg-surface-muted disabled:cursor-not-allowed disabled:opacity-50';
const primaryClass =
  'rounded bg-accent px-3 py-1.5 text-sm font-medium text-fg-inverse hover:bg-accent-strong disabled:cursor-not-allowed disabled:opacity-50';

/** "May 31, 2026 14:05 UTC" from an ISO time (as given when it is not one). */
function formatTime(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = new Date(t).toISOString();
  return `${formatDayLong(s.slice(0, 10))} ${s.slice(11, 16)} UTC`;
}

function describeSource(a: Pick<TeamsAnswer, 'source' | 'name'>): string {
  switch (a.source) {
    case 'file':
      return a.name
        ? `The file ${a.name}, named by the server’s TEAMS_FILE setting`
        : 'The file named by the server’s TEAMS_FILE setting';
    case 'store':
      return `Uploaded on this screen and kept by the dashboard server${a.name ? ` (${a.name})` : ''}`;
    case 'demo':
      return 'The demo organization’s mapping';
    case 'none':
      return 'None: no mapping has been given, so everyone is counted as Unassigned';
  }
}

/** "12 teams; 340 of the 355 known people are in a team, 15 Unassigned; 9 repositories or patterns owned." */
function countsLine(a: TeamsAnswer): string {
  const teams = countTeams(a.teams);
  const people = `${formatExact(a.users - a.unassigned)} of the ${formatExact(a.users)} known people are in a team, ${formatExact(a.unassigned)} Unassigned`;
  const repos =
    a.repos === 0
      ? 'no repositories owned'
      : `${formatExact(a.repos)} ${a.repos === 1 ? 'repository or pattern' : 'repositories or patterns'} owned`;
  return `${formatExact(teams)} ${teams === 1 ? 'team' : 'teams'}; ${people}; ${repos}.`;
}

/** The members of the top-level teams and Unassigned: each known person once, and the people named but unseen. */
const allMembers = (a: TeamsAnswer) => a.teams.reduce((n, t) => n + t.members, 0) + a.unassigned;

/**
 * Why the teams page's members and this screen's known people differ: "The teams' members and Unassigned add
 * up to 150: the 136 known people and 14 people the mapping names who have not used the agent yet."
 */
function membersLine(a: TeamsAnswer): string {
  const members = allMembers(a);
  const unseen = notYetSeen(members, a.users);
  return unseen === 0
    ? `The teams' members and Unassigned add up to the ${formatExact(a.users)} known people: the mapping names no one who has not used the agent yet.`
    : `The teams' members and Unassigned add up to ${formatExact(members)}: the ${formatExact(a.users)} known people and ${people(unseen, formatExact)} the mapping names who ${unseen === 1 ? 'has' : 'have'} not used the agent yet.`;
}

/** A problem as a sentence that starts with its place (the server's messages do already). */
const problemText = (p: MappingProblem) =>
  p.line !== null && !/\bline \d+/.test(p.message) ? `line ${p.line}: ${p.message}` : p.message;

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section aria-label={title} className="rounded-lg border border-line bg-surface p-4 shadow-sm">
      <h2 className="mb-3 text-base font-semibold text-fg">{title}</h2>
      {children}
    </section>
  );
}

export default function MappingPage() {
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
      {teams ? <Mapping /> : <NoTeams />}
    </div>
  );
}

function Mapping() {
  // Read afresh each time the screen opens: the file may have changed since.
  const state = useQuery({ ...teamsQuery, staleTime: 0 });
  const { signIn } = useAppConfig();
  const me = useMe(signIn);
  const text = useQuery(mappingTextQuery);
  return (
    <>
      <Widget
        title="Mapping in force"
        description="Who is in which team. Every team's figures include its sub-teams."
        query={state}
      >
        {(a) => <InForce answer={a} />}
      </Widget>
      <Widget title="Mapping text" query={text}>
        {(t) =>
          state.data ? (
            state.data.editable && (!signIn || me?.role === 'admin') ? (
              <Editor inForce={t} answer={state.data} />
            ) : (
              <ReadOnly inForce={t} answer={state.data} />
            )
          ) : state.isError ? (
            <p className="text-sm text-fg-muted">
              Whether the mapping can be changed here is read with the mapping in force, above: retry there.
            </p>
          ) : (
            <Loading />
          )
        }
      </Widget>
      <Format />
      {(!signIn || me?.role === 'admin') && <ExportPanel />}
    </>
  );
}

function InForce({ answer: a }: { answer: TeamsAnswer }) {
  return (
    <div className="flex flex-col gap-3 text-sm">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="text-fg-muted">Source</dt>
        <dd>{describeSource(a)}</dd>
        <dt className="text-fg-muted">Loaded</dt>
        <dd>{a.loadedAt ? formatTime(a.loadedAt) : '–'}</dd>
        <dt className="text-fg-muted">Teams</dt>
        <dd className="tabular-nums">{formatExact(countTeams(a.teams))}</dd>
        <dt className="flex items-center gap-1 text-fg-muted">
          {DEFINITIONS.knownPeople.label}
          <DefinitionTip definition={DEFINITIONS.knownPeople} />
        </dt>
        <dd className="tabular-nums">{formatExact(a.users)}</dd>
        <dt className="text-fg-muted">In a team</dt>
        <dd className="tabular-nums">{formatExact(a.users - a.unassigned)}</dd>
        <dt className="flex items-center gap-1 text-fg-muted">
          {DEFINITIONS.unassigned.label}
          <DefinitionTip definition={DEFINITIONS.unassigned} />
        </dt>
        <dd className="tabular-nums">{formatExact(a.unassigned)}</dd>
        {/* Short: a long term widens the first column and squeezes the values on a phone. */}
        <dt className="flex items-center gap-1 text-fg-muted">
          All members
          <DefinitionTip definition={DEFINITIONS.members} />
        </dt>
        <dd className="tabular-nums">{formatExact(allMembers(a))}</dd>
      </dl>
      <p className="text-fg-muted">{membersLine(a)}</p>
      {a.refused && (
        <details className="rounded-md bg-warning-surface p-3 text-warning-fg">
          <summary className="cursor-pointer font-medium">
            A later version was refused on {formatTime(a.refused.at)} and not applied (
            {formatExact(a.refused.errors.length)} {a.refused.errors.length === 1 ? 'problem' : 'problems'}); the
            mapping above stays in force.
          </summary>
          <ul className="mt-2 list-disc pl-5">
            {a.refused.errors.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

function ReadOnly({ inForce, answer }: { inForce: MappingText; answer: TeamsAnswer }) {
  return (
    <div className="flex flex-col gap-3 text-sm">
      <p role="note" className="rounded bg-surface-muted p-3">
        {answer.source === 'file' ? (
          <>
            This mapping comes from the file <strong>{answer.name ?? 'named by TEAMS_FILE'}</strong>, which the
            dashboard server reads from its <code>TEAMS_FILE</code> setting, so it cannot be changed here. To change it,
            edit that file (in the format below): the server reads it again within seconds of a change, and refuses a
            file with errors while keeping the mapping in force. To upload the mapping on this screen instead, remove{' '}
            <code>TEAMS_FILE</code> from the server&apos;s settings and restart it.
          </>
        ) : answer.editable ? (
          'Only the dashboard’s admins (ADMIN_EMAILS) can change the team mapping.'
        ) : (
          'The dashboard server does not allow changing the mapping on this screen.'
        )}
      </p>
      <label className="flex flex-col gap-1">
        <span className="text-fg-muted">Mapping in force ({inForce.format.toUpperCase()})</span>
        <textarea
          readOnly
          value={inForce.text}
          rows={14}
          spellCheck={false}
          className="rounded border border-line bg-surface-muted p-2 font-mono text-xs"
        />
      </label>
    </div>
  );
}

const formatOfFile = (f: File, fallback: NewMapping['format']): NewMapping['format'] =>
  /\.json$/i.test(f.name) || f.type === 'application/json'
    ? 'json'
    : /\.(csv|txt)$/i.test(f.name) || f.type === 'text/csv'
      ? 'csv'
      : fallback;

function readFile(f: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error ?? new Error('the file could not be read'));
    r.readAsText(f);
  });
}

function Editor({ inForce, answer }: { inForce: MappingText; answer: TeamsAnswer }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState<NewMapping | null>(null);
  const [done, setDone] = useState<'saved' | 'removed' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const current: NewMapping = draft ?? { format: inForce.format, text: inForce.text };
  const changed = current.text !== inForce.text || current.format !== inForce.format;

  const save = useMutation({
    mutationFn: saveMapping,
    onMutate: () => setDone(null),
    // Held until the teams and every team figure are read again: the counts shown are the new mapping's.
    onSuccess: async () => {
      await invalidateTeamScoped(client);
      setDraft(null);
      setDone('saved');
    },
    // The server notes the refused version (`refused`): show it in the mapping's state.
    onError: () => void client.invalidateQueries({ queryKey: teamsQuery.queryKey }),
  });
  const remove = useMutation({
    mutationFn: removeMapping,
    onMutate: () => setDone(null),
    onSuccess: async () => {
      await invalidateTeamScoped(client);
      setDraft(null);
      setConfirming(false);
      setDone('removed');
    },
  });

  const edit = (next: NewMapping) => {
    setDraft(next);
    setDone(null);
  };

  async function onFile(e: React.ChangeEvent<HTMLInputElement>) {
    const input = e.currentTarget;
    const f = input.files?.[0];
    if (!f) return;
    try {
      edit({ format: formatOfFile(f, current.format), text: await readFile(f), name: f.name });
      setFileError(null);
    } catch (err) {
      setFileError(`${f.name} could not be read: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      input.value = '';
    }
  }

  /** Selects line `n` of the text, scrolled into view, so a problem can be corrected where it is. */
  function showLine(n: number) {
    const el = area.current;
    if (!el) return;
    const lines = el.value.split('\n');
    const start = lines.slice(0, n - 1).reduce((s, l) => s + l.length + 1, 0);
    const end = start + (lines[n - 1]?.length ?? 0);
    el.focus();
    el.setSelectionRange(start, end);
    el.scrollTop = Math.max(0, ((n - 3) * el.scrollHeight) / Math.max(lines.length, 1));
  }

  const refused = save.error instanceof MappingRefusedError ? save.error : undefined;
  const busy = save.isPending || remove.isPending;

  return (
    <form
      className="flex flex-col gap-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(current);
      }}
    >
      <p className="text-fg-muted">
        Upload a CSV or JSON file, or edit the text below, then save. A mapping with a problem is refused whole and the
        mapping in force stays as it is.
      </p>
      <div className="flex flex-wrap items-end gap-4">
        <label className="flex flex-col gap-1">
          <span className="text-fg-muted">Upload a CSV or JSON file</span>
          <input
            type="file"
            accept=".csv,.json,text/csv,application/json"
            onChange={(e) => void onFile(e)}
            className="text-sm file:mr-2 file:rounded file:border file:border-line-strong file:bg-surface file:px-2 file:py-1 file:text-fg-soft"
          />
        </label>
        <fieldset className="flex items-center gap-3">
          <legend className="mb-1 text-fg-muted">Format</legend>
          {(['csv', 'json'] as const).map((f) => (
            <label key={f} className="flex items-center gap-1">
              <input
                type="radio"
                name="mapping-format"
                value={f}
                checked={current.format === f}
                onChange={() => edit({ ...current, format: f })}
              />
              {f.toUpperCase()}
            </label>
          ))}
        </fieldset>
      </div>
      {fileError && (
        <p role="alert" className="text-danger">
          {fileError}
        </p>
      )}
      <label className="flex flex-col gap-1">
        <span className="text-fg-muted">Mapping text</span>
        <textarea
          ref={area}
          value={current.text}
          onChange={(e) => edit({ ...current, text: e.target.value })}
          rows={16}
          spellCheck={false}
          className="rounded border border-line-strong bg-surface p-2 font-mono text-xs"
        />
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className={primaryClass} disabled={!changed || busy}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        <button
          type="button"
          className={buttonClass}
          disabled={!changed || busy}
          onClick={() => {
            setDraft(null);
            save.reset();
          }}
        >
          Revert to the mapping in force
        </button>
        {answer.source === 'store' && !confirming && (
          <button type="button" className={buttonClass} disabled={busy} onClick={() => setConfirming(true)}>
            Remove the uploaded mapping
          </button>
        )}
      </div>
      {confirming && (
        <div
          role="group"
          aria-label="Confirm the removal"
          className="flex flex-wrap items-center gap-2 rounded-md border border-danger-line bg-danger-surface p-3 text-danger-fg"
        >
          <p>
            Remove the uploaded mapping? The dashboard goes back to the demo organization&apos;s mapping if it runs the
            demo, or to no mapping, where everyone is Unassigned.
          </p>
          <button
            type="button"
            className="rounded border border-danger-line bg-surface px-3 py-1.5 font-medium hover:bg-danger-surface-strong"
            disabled={remove.isPending}
            onClick={() => remove.mutate()}
          >
            {remove.isPending ? 'Removing…' : 'Yes, remove it'}
          </button>
          <button
            type="button"
            className={buttonClass}
            disabled={remove.isPending}
            onClick={() => setConfirming(false)}
          >
            Cancel
          </button>
        </div>
      )}
      {refused && (
        <div role="alert" className="rounded-md bg-danger-surface p-4 text-danger-fg">
          {/* One sentence: the server's detail repeats the count and the first problem, which the list gives. */}
          <p>
            <span className="font-semibold">
              The mapping was refused ({formatExact(refused.problems.length)}{' '}
              {refused.problems.length === 1 ? 'problem' : 'problems'}): nothing changed.
            </span>{' '}
            The mapping in force stays as it was; your text is kept here so you can correct it.
          </p>
          <ul className="mt-2 flex flex-col gap-1" aria-label="Problems">
            {refused.problems.map((p, i) => (
              <li key={i} className="flex flex-wrap items-center gap-2">
                <span>{problemText(p)}</span>
                {p.line !== null && (
                  <button type="button" className="text-xs underline" onClick={() => showLine(p.line!)}>
                    Show line {p.line}
                  </button>
                )}
              </li>
            ))}
          </ul>
          {refused.requestId && (
            <p className="mt-2 text-xs">
              Request id: <code className="select-all">{refused.requestId}</code>
            </p>
          )}
        </div>
      )}
      {save.isError && !refused && (
        <ErrorState error={save.error} onRetry={() => save.variables && save.mutate(save.variables)} />
      )}
      {remove.isError && <ErrorState error={remove.error} onRetry={() => remove.mutate()} />}
      {done === 'saved' && (
        <p role="status" className="rounded-md bg-success-surface p-3 text-success-fg">
          Saved. The mapping in force now has {countsLine(answer)}
        </p>
      )}
      {done === 'removed' && (
        <p role="status" className="rounded-md bg-success-surface p-3 text-success-fg">
          The uploaded mapping was removed. Now in force: {describeSource(answer)}.
          {answer.source !== 'none' && ` ${countsLine(answer)}`}
        </p>
      )}
    </form>
  );
}

function Format() {
  return (
    <Panel title="Format">
      <div className="flex flex-col gap-2 text-sm">
        <p>
          <strong>CSV</strong>: a header row, then one row per person. Columns, in any order:
        </p>
        <ul className="list-disc pl-5">
          <li>
            <code>email</code> or <code>user_id</code> (or both): who the person is;
          </li>
          <li>
            <code>team</code>: the team&apos;s path, levels separated by <code>/</code>, e.g.{' '}
            <code>Engineering/Platform/Infra</code>;
          </li>
          <li>
            <code>manager</code> (optional): the emails of the team&apos;s managers, separated by <code>;</code>;
          </li>
          <li>
            <code>repos</code> (optional): the repositories the team owns, separated by <code>;</code>, each a URL or{' '}
            <code>host/owner/name</code>; a <code>*</code> stands for part of a name (<code>github.com/acme/web-*</code>
            ). The readiness pages show them by team; a repository no team owns is Unowned.
          </li>
        </ul>
        <pre className="overflow-auto rounded bg-surface-muted p-2 font-mono text-xs">
          {`email,team,manager,repos
ann@acme.com,Engineering/Platform,bo@acme.com;cy@acme.com,github.com/acme/api;github.com/acme/web-*
dee@acme.com,Engineering/Platform/Infra,,git@github.com:acme/infra.git
eve@acme.com,Sales,,`}
        </pre>
        <p>
          <strong>JSON</strong>: an array of entries with the same keys; <code>manager</code> and <code>repos</code> may
          also be lists.
        </p>
        <pre className="overflow-auto rounded bg-surface-muted p-2 font-mono text-xs">
          {`[
  { "email": "ann@acme.com", "team": "Engineering/Platform", "manager": ["bo@acme.com"],
    "repos": ["github.com/acme/api", "https://github.com/acme/web-*"] },
  { "user_id": "usr_42", "team": "Data" }
]`}
        </pre>
        <p className="text-fg-muted">
          A person belongs to one team; people the mapping does not name are counted as Unassigned. A team&apos;s
          figures include its sub-teams.
        </p>
      </div>
    </Panel>
  );
}
