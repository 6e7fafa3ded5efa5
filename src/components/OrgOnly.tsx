import { Link, useLocation } from 'react-router-dom';
import { useReader } from '../data/me';
import { useLinkTo } from '../data/search';
import { OrgOnlyNote } from './OrgOnlyNote';
import { Widget } from './Widget';

/** A widget whose figures are organization-only, while teams are selected: its frame and title, and the note. */
export function OrgOnlyWidget({
  title,
  description,
  className,
}: {
  title: string;
  description?: string;
  className?: string;
}) {
  return (
    <Widget title={title} description={description} query={{ data: true }} className={className}>
      {() => (
        <div className="flex h-full min-h-32 flex-col items-center justify-center gap-1 px-4 text-center">
          <OrgOnlyNote />
          <p className="text-xs text-fg-subtle">
            Choose “All teams” in the Team menu to see the organization’s figures.
          </p>
        </div>
      )}
    </Widget>
  );
}

const list = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' });

/**
 * While teams are selected, one compact note in place of every figure of a page that the service gives for
 * the whole organization only (never a box per figure): what they are, `why` the page's team figures still
 * stand, and a link to the page for the whole organization (for a reader who may see it).
 */
export function OrgOnlySummary({ figures, why }: { figures: readonly string[]; why?: string }) {
  const linkTo = useLinkTo();
  const { pathname } = useLocation();
  const me = useReader();
  return (
    <aside
      aria-label="For the whole organization only"
      className="flex flex-col gap-1 rounded-lg border border-line bg-surface-muted px-4 py-3 text-sm text-fg-muted sm:flex-row sm:items-center sm:justify-between sm:gap-4"
    >
      <p role="note">
        <strong className="font-medium text-fg-soft">For the whole organization only</strong>, not split by team:{' '}
        {list.format(figures)}.{why ? ` ${why}` : ''}
      </p>
      {me?.orgView !== false && (
        <Link to={linkTo(pathname, { team: [] })} className="shrink-0 font-medium text-accent-strong underline">
          See the whole organization
        </Link>
      )}
    </aside>
  );
}
