// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubReadiness, tenReport } from '../../test/readiness-fixtures';
import { TEST_CONFIG, renderWithApp } from '../../test/render';
import ReadinessPage from './ReadinessPage';
import RepoPage from './RepoPage';
import { StaleBadge } from './StaleBadge';

const SLOW = 20_000;
// The latest complete day is May 31, 2026 (TEST_CONFIG): today, as the alerts count, is June 1.
const STORE = { ...TEST_CONFIG, teams: true, latestDay: '2026-05-31' };
const at = (day: string) => Date.parse(`${day}T12:00:00Z`);

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('StaleBadge', () => {
  it('shows a report older than N days as stale, with its age; one of N days or fewer, nothing', () => {
    const { container, rerender } = renderWithApp(<StaleBadge createdAt={at('2026-05-02')} staleAfter={30} />, {
      config: STORE,
    });
    // May 2 to June 1: 30 days, not older than 30.
    expect(container.textContent).toBe('');
    rerender(<StaleBadge createdAt={at('2026-05-01')} staleAfter={30} />);
    expect(container.textContent).toBe('stale · 31 days (older than 30 days)');
    expect(screen.getByTitle('The latest report is 31 days old: older than 30 days.')).toBeTruthy();
    rerender(<StaleBadge createdAt={at('2026-05-01')} staleAfter={45} />);
    expect(container.textContent).toBe('');
  });
});

describe('the stale badge on the readiness pages', () => {
  // acme/old's latest report is of March 5 (88 days old), acme/new's of May 30 (2 days old).
  const REPORTS = [
    tenReport('o1', 'old', '2026-03-01', 5),
    tenReport('o2', 'old', '2026-03-05', 5),
    tenReport('n1', 'new', '2026-05-30', 5),
  ];
  const OWNERS = { 'github.com/acme/old': 'Eng', 'github.com/acme/new': 'Eng' };

  it(
    'marks the repositories whose latest report is older than the days the answer says, in their rows',
    async () => {
      // jsdom lays nothing out: a box the size of a screen lets the virtual table of repositories draw its rows.
      vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(720);
      stubReadiness(REPORTS, OWNERS, { 'github.com/acme/old': 30, 'github.com/acme/new': 1 });
      renderWithApp(<ReadinessPage />, { url: '/readiness', config: STORE });
      const table = await screen.findByRole(
        'table',
        { name: 'Repositories and their latest readiness' },
        { timeout: 10_000 },
      );
      const row = async (name: string) =>
        (await within(table).findByRole('link', { name })).closest('tr') as HTMLElement;
      expect((await row('acme/old')).textContent).toContain('Mar 5, 2026stale · 88 days (older than 30 days)');
      // Its rule says one day: two days old is stale too.
      expect((await row('acme/new')).textContent).toContain('May 30, 2026stale · 2 days (older than 1 day)');
    },
    SLOW,
  );

  it(
    'on the scorecard: by the latest report, whichever is open; after the default 30 days when the answer says none',
    async () => {
      stubReadiness(REPORTS, OWNERS);
      renderWithApp(
        <Routes>
          <Route path="/readiness/:repo" element={<RepoPage />} />
        </Routes>,
        { url: '/readiness/github.com%2Facme%2Fold?report=o1', config: STORE },
      );
      await screen.findByRole('heading', { name: 'acme/old', level: 1 });
      expect(screen.getByTitle('The latest report is 88 days old: older than 30 days.').textContent).toBe(
        'stale · 88 days (older than 30 days)',
      );
    },
    SLOW,
  );

  it(
    'no badge for a repository whose latest report is recent enough',
    async () => {
      stubReadiness(REPORTS, OWNERS, { 'github.com/acme/new': 7 });
      renderWithApp(
        <Routes>
          <Route path="/readiness/:repo" element={<RepoPage />} />
        </Routes>,
        { url: '/readiness/github.com%2Facme%2Fnew', config: STORE },
      );
      await screen.findByRole('heading', { name: 'acme/new', level: 1 });
      expect(screen.queryByText(/^stale · /)).toBeNull();
    },
    SLOW,
  );
});
