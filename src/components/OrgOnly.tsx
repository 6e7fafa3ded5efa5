import { Widget } from './Widget';

/** What a team's answer lacks, in words: the service gives these figures for the whole organization only. */
export const ORG_ONLY_NOTE = 'Given by the service for the whole organization only — not split by team.';

/**
 * The note shown, while teams are selected, where an organization-only figure would be: never the
 * organization's numbers under a team's name. `what` names the figures when only part of a widget
 * is organization-only ("Cache read and cache write tokens are …").
 */
export function OrgOnlyNote({
  what,
  size = 'sm',
  className = '',
}: {
  what?: string;
  size?: 'xs' | 'sm';
  className?: string;
}) {
  return (
    <p role="note" className={`${size === 'xs' ? 'text-xs' : 'text-sm'} text-fg-muted ${className}`}>
      {what ? `${what} are given by the service for the whole organization only — not split by team.` : ORG_ONLY_NOTE}
    </p>
  );
}

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
