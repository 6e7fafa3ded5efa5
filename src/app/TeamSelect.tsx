import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useSearchParams } from 'react-router-dom';
import { useAppConfig } from '../data/config';
import { prefetchPage } from './routes';
import { memo, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { UNASSIGNED, type TeamView, type TeamsAnswer } from '../api/teams';
import { useMe } from '../data/me';
import { useTeams, writeSearch } from '../data/search';
import { teamsQuery } from '../data/teams';
import { formatExact } from '../lib/format';

interface TeamRow {
  path: string;
  name: string;
  /** 0 for a top-level team. */
  depth: number;
  members: number;
}

/** The tree in reading order, each team after its parent, and Unassigned last. */
function teamRows(answer: TeamsAnswer): TeamRow[] {
  const rows: TeamRow[] = [];
  const walk = (teams: readonly TeamView[], depth: number) => {
    for (const t of teams) {
      rows.push({ path: t.path, name: t.name, depth, members: t.members });
      walk(t.children, depth + 1);
    }
  };
  walk(answer.teams, 0);
  if (answer.teams.length > 0) rows.push({ path: UNASSIGNED, name: UNASSIGNED, depth: 0, members: answer.unassigned });
  return rows;
}

/** The selected team that includes `path` as a sub-team, if any. */
const coveringTeam = (path: string, selected: readonly string[]) => selected.find((s) => path.startsWith(`${s}/`));

/**
 * "All teams", a team by its path ("Data/Auth", never a bare "Auth" that two teams may bear; a deep one
 * by its last two parts, "…/Platform/Auth", the whole path on hover), or "3 teams".
 */
export function summary(selected: readonly string[]): string {
  if (selected.length === 0) return 'All teams';
  if (selected.length === 1) {
    const parts = selected[0]!.split('/');
    return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : selected[0]!;
  }
  return `${selected.length} teams`;
}

const people = (n: number) => `${formatExact(n)} ${n === 1 ? 'person' : 'people'}`;

/**
 * The team filter of the analytics pages: a button showing the selection that opens a panel with the
 * team tree (indented, with each team's people), a filter box for large organizations, a checkbox per
 * team for several at once, Unassigned last, and "All teams" to clear. Choosing a team includes its
 * sub-teams, whose boxes then show as included. Escape, a click outside or leaving it closes the panel.
 * Shown only when the mapping has teams (or the URL already names some, so they can be cleared).
 */
export function TeamSelect() {
  const tree = useQuery(teamsQuery);
  const [selected, setSelected] = useTeams();
  const client = useQueryClient();
  const config = useAppConfig();
  const me = useMe(config.signIn);
  const orgView = me?.orgView !== false;
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const panelId = useId();
  const rows = useMemo(() => (tree.data ? teamRows(tree.data) : []), [tree.data]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (e: Event) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  // What a box's change reads, kept current, so that `toggle` is one function for the panel's life and a
  // change of selection draws only the boxes it changes, not every team of a large organization.
  const latest = useRef({ selected, params, pathname, setSelected });
  useLayoutEffect(() => {
    latest.current = { selected, params, pathname, setSelected };
  });
  const toggle = useCallback(
    (path: string, on: boolean) => {
      const { selected, params, pathname, setSelected } = latest.current;
      const next = on
        ? [...selected.filter((s) => !s.startsWith(`${path}/`)), path]
        : selected.filter((s) => s !== path);
      // The page's first answers for the new teams are asked for now, while the page renders its placeholders.
      const search = writeSearch(params, { team: next });
      void prefetchPage(client, config, { pathname, search: `?${search}` });
      setSelected(next);
    },
    [client, config],
  );

  if (rows.length === 0 && selected.length === 0) return null;

  const query = filter.trim().toLowerCase();
  const matches = (path: string) => path.toLowerCase().includes(query);
  // Teams the URL names that the mapping does not have stay listed first, so they can be cleared.
  const unknown: TeamRow[] = selected
    .filter((s) => !rows.some((r) => r.path === s) && matches(s))
    .map((path) => ({ path, name: path, depth: 0, members: -1 }));
  const shown = [...unknown, ...rows.filter((r) => matches(r.path))];

  const close = (focusButton: boolean) => {
    setOpen(false);
    setFilter('');
    if (focusButton) button.current?.focus();
  };

  /** Arrow keys move between the filter box and the team boxes; Escape closes and returns to the button. */
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
      return;
    }
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return;
    const boxes = [
      ...(list.current?.querySelectorAll<HTMLInputElement>('input[type="checkbox"]:not(:disabled)') ?? []),
    ];
    if (boxes.length === 0) return;
    const at = boxes.indexOf(document.activeElement as HTMLInputElement);
    if (at < 0 && (e.key === 'Home' || e.key === 'End')) return; // the filter box's own caret keys
    e.preventDefault();
    const next =
      e.key === 'Home'
        ? 0
        : e.key === 'End'
          ? boxes.length - 1
          : e.key === 'ArrowDown'
            ? Math.min(at + 1, boxes.length - 1)
            : at - 1;
    if (next < 0) root.current?.querySelector<HTMLInputElement>('input[type="search"]')?.focus();
    else boxes[next]!.focus();
  };

  return (
    <div
      ref={root}
      className="relative text-sm"
      onBlur={(e) => {
        // Tabbing out of the panel closes it (a click on the panel's own background keeps it open).
        if (open && e.relatedTarget && !root.current?.contains(e.relatedTarget as Node)) close(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        title={selected.length ? selected.join(', ') : undefined}
        onClick={() => (open ? close(false) : setOpen(true))}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          } else if (e.key === 'Escape' && open) {
            e.preventDefault();
            close(false);
          }
        }}
        className={`flex items-center gap-1.5 rounded border px-2.5 py-1 ${
          selected.length ? 'border-accent bg-accent-muted text-accent-strong' : 'border-line-strong text-fg-soft'
        } hover:bg-surface-muted`}
      >
        <span className={selected.length ? '' : 'text-fg-muted'}>Team:</span>
        <span className="max-w-64 truncate font-medium">{summary(selected)}</span>
        <span aria-hidden="true" className="text-xs">
          ▾
        </span>
      </button>
      {open && (
        <div
          id={panelId}
          role="dialog"
          aria-label="Team"
          onKeyDown={onKeyDown}
          className="absolute left-0 z-30 mt-1 flex w-80 max-w-[90vw] flex-col gap-2 rounded-lg border border-line bg-surface p-3 shadow-lg"
        >
          <input
            type="search"
            autoFocus
            aria-label="Filter teams"
            placeholder="Filter teams"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            className="rounded border border-line-strong bg-surface px-2 py-1"
          />
          {orgView ? (
            <button
              type="button"
              aria-pressed={selected.length === 0}
              onClick={() => {
                setSelected([]);
                close(true);
              }}
              className={`rounded px-2 py-1 text-left font-medium ${
                selected.length === 0 ? 'bg-accent-muted text-accent-strong' : 'text-fg-soft hover:bg-surface-muted'
              }`}
            >
              All teams <span className="font-normal text-fg-subtle">— the whole organization</span>
            </button>
          ) : (
            <button
              type="button"
              onClick={() => {
                setSelected([]);
                close(true);
              }}
              className="rounded px-2 py-1 text-left font-medium text-fg-soft hover:bg-surface-muted"
            >
              My teams <span className="font-normal text-fg-subtle">— all the teams you manage</span>
            </button>
          )}
          {tree.isError && <p className="text-danger">The list of teams could not be loaded.</p>}
          <ul ref={list} aria-label="Teams" className="max-h-80 overflow-auto">
            {shown.map((r, i) => (
              <TeamOption
                key={r.path}
                row={r}
                descId={`${panelId}-${i}`}
                checked={selected.includes(r.path)}
                cover={coveringTeam(r.path, selected)}
                filtered={query !== ''}
                onToggle={toggle}
              />
            ))}
          </ul>
          {query && shown.length === 0 && <p className="text-fg-subtle">No team matches “{filter.trim()}”.</p>}
          <div className="flex items-center justify-between gap-2 border-t border-line-subtle pt-2">
            <p className="text-xs text-fg-subtle" aria-live="polite">
              {selected.length === 0
                ? 'Showing the whole organization.'
                : `${selected.length === 1 ? '1 team' : `${selected.length} teams`} selected, sub-teams included.`}
            </p>
            <button
              type="button"
              onClick={() => close(true)}
              className="rounded border border-line-strong px-2 py-0.5 font-medium text-fg-soft hover:bg-surface-muted"
            >
              Done
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

/** One team's box in the panel; drawn again only when its own state changes. */
const TeamOption = memo(function TeamOption({
  row: r,
  descId,
  checked,
  cover,
  filtered,
  onToggle,
}: {
  row: TeamRow;
  descId: string;
  checked: boolean;
  /** The selected team that includes this one. */
  cover: string | undefined;
  /** The list is filtered: full paths, no indentation. */
  filtered: boolean;
  onToggle: (path: string, on: boolean) => void;
}) {
  return (
    <li>
      <label
        className="flex cursor-pointer items-center gap-2 rounded py-1 pr-1 hover:bg-surface-muted has-disabled:cursor-default"
        style={{ paddingInlineStart: `${0.25 + (filtered ? 0 : r.depth) * 1.25}rem` }}
      >
        <input
          type="checkbox"
          aria-label={r.path}
          aria-describedby={descId}
          checked={cover !== undefined || checked}
          disabled={cover !== undefined}
          onChange={(e) => onToggle(r.path, e.target.checked)}
        />
        <span className={`min-w-0 flex-1 truncate ${r.depth === 0 && !filtered ? 'font-medium' : ''}`}>
          {filtered ? r.path : r.name}
        </span>
        <span id={descId} className="text-xs whitespace-nowrap text-fg-subtle">
          {cover !== undefined ? `in ${cover}` : r.members < 0 ? 'not in the mapping' : people(r.members)}
        </span>
      </label>
    </li>
  );
});
