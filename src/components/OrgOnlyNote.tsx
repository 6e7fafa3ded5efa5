/**
 * The note of a figure the service gives for the whole organization only, apart from the widgets and summary that
 * say it for whole pages (OrgOnly.tsx): the landing page's cards and charts need only this.
 */

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
