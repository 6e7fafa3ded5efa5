/** Teams need the server's store: without it, say why there is nothing to show. */
export function NoTeams() {
  return (
    <p role="status" className="rounded bg-warning-surface p-3 text-sm text-warning-fg">
      Teams need the dashboard server to keep the organization&apos;s history, which it does when it holds the API key.
      This server does not, so it knows no teams.
    </p>
  );
}
