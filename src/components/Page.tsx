import { useDeferredValue, useEffect, useState } from 'react';
import { UNASSIGNED } from '../api/teams';

/**
 * A page title with optional controls on the right. With `teams`, the line under the title says
 * which teams the figures are for, so a team's numbers are never read as the organization's; with
 * `howToRead`, "How to read this page" unfolds under it: a few sentences on how the page works (what a figure
 * means is said once, in lib/definitions.ts, behind each figure's info button). Each page keeps its own
 * sentences, so a page's code carries only its own.
 */
export function PageHeader({
  title,
  teams = [],
  howToRead,
  children,
}: {
  title: string;
  teams?: readonly string[];
  howToRead?: readonly string[];
  children?: React.ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <div className="flex flex-col gap-1">
        <h1 className="text-xl font-semibold text-fg">{title}</h1>
        {teams.length > 0 && <TeamScope teams={teams} />}
        {howToRead && <HowToRead lines={howToRead} />}
      </div>
      <div className="flex flex-wrap items-center gap-2">{children}</div>
    </div>
  );
}

/** Folded by default: a line of the page's room until the reader asks. */
function HowToRead({ lines }: { lines: readonly string[] }) {
  return (
    <details className="max-w-3xl text-sm text-fg-muted">
      <summary className="w-fit cursor-pointer text-accent-strong underline-offset-2 hover:underline">
        How to read this page
      </summary>
      <ul className="mt-1 flex list-disc flex-col gap-1 pl-5">
        {lines.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
    </details>
  );
}

/** "Team: Engineering/Platform — figures for its members only, sub-teams included." */
export function TeamScope({ teams }: { teams: readonly string[] }) {
  const several = teams.length > 1;
  const who =
    teams.length === 1 && teams[0] === UNASSIGNED
      ? 'figures for the people no team names'
      : several
        ? 'figures for their members only, sub-teams included, each person counted once'
        : 'figures for its members only, sub-teams included';
  return (
    <p className="flex flex-wrap items-center gap-x-1.5 gap-y-1 text-sm text-fg-muted">
      <span className="font-medium text-fg-soft">{several ? 'Teams:' : 'Team:'}</span>
      {teams.map((t) => (
        <span key={t} className="rounded bg-accent-muted px-1.5 py-0.5 font-medium text-accent-strong">
          {t}
        </span>
      ))}
      <span>— {who}.</span>
    </p>
  );
}

/**
 * What lies below the fold: rendered right after the first paint (a deferred,
 * interruptible render), so the page's first chart is not held up by it.
 */
export function BelowTheFold({ children }: { children: React.ReactNode }) {
  const ready = useDeferredValue(true, false);
  return ready ? children : null;
}

/**
 * Whether `ready` has held since a frame was painted: code asked for below the first chart (a lazy chunk) then loads
 * after the chart is on screen, not in the same render as its answer, so it never competes with it.
 */
export function useAfterPaint(ready: boolean): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!ready || painted) return;
    let id = requestAnimationFrame(() => (id = requestAnimationFrame(() => setPainted(true))));
    return () => cancelAnimationFrame(id);
  }, [ready, painted]);
  return painted;
}
