import { Link } from 'react-router-dom';
import { pageRefusal, useReader } from '../data/me';
import { useLinkTo } from '../data/search';

/**
 * In place of a payoff with no repositories to read: how to give teams their repositories (the mapping's
 * `repos` column), with a link to the mapping screen for those who may edit it.
 */
export function NoRepos({ team }: { team?: string }) {
  const linkTo = useLinkTo();
  const mayMap = pageRefusal(useReader(), '/settings/teams') === null;
  return (
    <div role="status" className="rounded bg-surface-muted p-3 text-sm text-fg-soft">
      <p>
        {team
          ? `The team mapping names no repositories for ${team}, so there is no readiness to set beside its figures.`
          : 'The team mapping names no team’s repositories, so there is no readiness to set beside the teams’ figures.'}
      </p>
      <p className="mt-1">
        Add a <code className="font-mono">repos</code> column to the mapping: each team’s repositories as URLs or{' '}
        <code className="font-mono">host/owner/name</code>, <code className="font-mono">*</code> patterns allowed,
        separated by <code className="font-mono">;</code> (for example{' '}
        <code className="font-mono">github.com/acme/api; github.com/acme/web-*</code>).{' '}
        {mayMap ? (
          <Link to={linkTo('/settings/teams')} className="font-medium text-accent-strong underline">
            Edit the team mapping
          </Link>
        ) : (
          'An admin can change it on the team mapping screen.'
        )}
      </p>
    </div>
  );
}
