// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Whole pages render in jsdom: slow on a loaded machine.
const SLOW = 20_000;
import { cardDefinitions, undefinedCards } from '../../test/kpi';
import { TEN, stubReadiness, tenReport } from '../../test/readiness-fixtures';
import { TEST_CONFIG, captureDownloads, renderWithApp } from '../../test/render';
import ReadinessPage from './ReadinessPage';

const STORE = { ...TEST_CONFIG, teams: true };
// Latest levels: a 3 (50 %, after 10 %), b 4 (70 %), c 2 (20 %), d 5 (90 %).
const REPORTS = [
  tenReport('a1', 'a', '2026-03-01', 1),
  tenReport('a2', 'a', '2026-03-05', 5),
  tenReport('b1', 'b', '2026-03-02', 7),
  tenReport('c1', 'c', '2026-03-03', 2),
  tenReport('d1', 'd', '2026-03-04', 9),
];
const OWNERS = {
  'github.com/acme/a': 'Eng/Platform',
  'github.com/acme/b': 'Eng/Platform',
  'github.com/acme/c': 'Data',
  'github.com/acme/d': null,
};

/** The repositories per level table's rows, level 5 first: [level and meaning, repositories, share]. */
const spreadRows = async () => {
  const table = await screen.findByRole('table', { name: 'Repositories per level' }, { timeout: 10_000 });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
};

describe('ReadinessPage', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says how each card is counted, of each repository’s latest report', { timeout: SLOW }, async () => {
    stubReadiness(REPORTS, OWNERS);
    renderWithApp(<ReadinessPage />, { url: '/readiness', config: STORE });
    await spreadRows();
    expect(cardDefinitions().map(([label]) => label)).toEqual([
      'At level 3 · Standardized or above',
      'Repositories tracked',
      'Last updated (UTC)',
    ]);
    expect(undefinedCards()).toEqual([]);
    expect(Object.fromEntries(cardDefinitions())['At level 3 · Standardized or above']).toMatch(
      /^At level 3 or above: The share of the repositories tracked whose latest report is at level 3/,
    );
  });

  it(
    'shows the repositories per level, what each level means and whether the target is met, not a mean rounded down',
    { timeout: SLOW },
    async () => {
      const stub = stubReadiness(REPORTS, OWNERS);
      renderWithApp(<ReadinessPage />, { url: '/readiness', config: STORE });
      expect(await spreadRows()).toEqual([
        ['5 · Autonomouspass rate 80\u00a0% or more', '1', '25%'],
        ['4 · Optimizedpass rate from 60\u00a0% to under 80\u00a0%', '1', '25%'],
        ['3 · Standardizedtargetpass rate from 40\u00a0% to under 60\u00a0%', '1', '25%'],
        ['2 · Documentedpass rate from 20\u00a0% to under 40\u00a0%', '1', '25%'],
        ['1 · Functionalpass rate below 20\u00a0%', '0', '0%'],
        ['At level 3 or above', '3', '75%'],
      ]);
      expect(screen.getByTestId('readiness-target').textContent).toBe(
        '✗ Target not met: 1 of 4 repositories is below level 3 · Standardized.',
      );
      const kpi = screen.getByText('At level 3 · Standardized or above').parentElement!;
      expect(kpi.textContent).toContain('75%');
      expect(kpi.textContent).toContain('3 of 4 · target not met: 1 below');
      expect(screen.queryByText(/rounded down/)).toBeNull();
      expect(screen.queryByText(/Organization level/)).toBeNull();
      // "How to read this page" words the level rule from the same thresholds.
      const how = screen.getByText('How to read this page').closest('details')!;
      expect(how.querySelector('li')!.textContent).toMatch(
        /level 1 below 20 %, 2 from 20 %, 3 from 40 %, 4 from 60 %, 5 from 80 %\. Level 3 is the usual target\.$/,
      );
      // The trend of the spread, in shares per level, for the period.
      expect(
        screen
          .getByRole('figure', { name: /^Organization: share of repositories at each level per day from / })
          .getAttribute('aria-label'),
      ).toMatch(/at level 3 or above on 2026-03-05: 75%\.$/);
      // One answer of the server's store: reports and owners together, never walked from the service as well.
      expect(stub.asked('/api/readiness')).toHaveLength(1);
      expect(stub.asked('/api/organization/maturity-level-reports')).toEqual([]);
    },
  );

  it(
    'leaves the weekends and listed holidays out of the daily spread when the reader hides them, and says so',
    { timeout: SLOW },
    async () => {
      stubReadiness(REPORTS, OWNERS);
      const downloads = captureDownloads();
      // The week to the last report (Thursday March 5): from Sunday March 1, the first report's day; March 3 a holiday.
      const r = renderWithApp(<ReadinessPage />, {
        url: '/readiness?period=7d&weekends=hide',
        config: { ...STORE, holidays: ['2026-03-03'] },
      });
      const chart = await screen.findByRole(
        'figure',
        { name: /^Organization: share of repositories at each level per day, working days only, from / },
        { timeout: 10_000 },
      );
      expect(chart.getAttribute('aria-label')).toMatch(/at level 3 or above on 2026-03-05: 75%\.$/);
      expect(
        screen.getByText('Saturdays, Sundays and the organization’s listed holidays (UTC) are left out of this chart.'),
      ).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Repositories per level over time' }));
      expect((await downloads.text()).split('\r\n').map((l) => l.split(',')[0])).toEqual([
        'date',
        '2026-03-02',
        '2026-03-04',
        '2026-03-05',
        '',
      ]);
      // The box is the analytics pages' own: unticked, every day is back.
      fireEvent.click(screen.getByRole('checkbox', { name: 'Hide weekends and holidays' }));
      expect(r.params().has('weekends')).toBe(false);
      expect(
        await screen.findByRole('figure', { name: /^Organization: share of repositories at each level per day from / }),
      ).toBeTruthy();
    },
  );

  it(
    'says per team how many repositories are at the target, beside their spread over the levels',
    { timeout: SLOW },
    async () => {
      stubReadiness(REPORTS, OWNERS);
      renderWithApp(<ReadinessPage />, { url: '/readiness', config: STORE });
      const table = await screen.findByRole('table', { name: 'Readiness by team' }, { timeout: 10_000 });
      const rows = within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) =>
          within(r)
            .getAllByRole('cell')
            .map((c) => c.textContent),
        );
      expect(rows).toEqual([
        ['Data', '1', '0% (0 of 1)', '1: 0 · 2: 1 · 3: 0 · 4: 0 · 5: 0', '20%'],
        ['Eng/Platform', '2', '100% (2 of 2)', '1: 0 · 2: 0 · 3: 1 · 4: 1 · 5: 0', '60%'],
        ['Unowned', '1', '100% (1 of 1)', '1: 0 · 2: 0 · 3: 0 · 4: 0 · 5: 1', '90%'],
      ]);
    },
  );

  it(
    'ranks what to fix next for level 3: only the repositories below it count, as many fixes by level',
    { timeout: SLOW },
    async () => {
      stubReadiness(REPORTS, OWNERS);
      renderWithApp(<ReadinessPage />, { url: '/readiness', config: STORE });
      const table = await screen.findByRole('table', { name: 'What to fix next' }, { timeout: 10_000 });
      const rows = within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
      // c (20 %) is the one repository below level 3: any two of its eight failing criteria bring it to 40 %. a (50 %),
      // b (70 %) and d (90 %) have next levels of their own, but are at the target.
      const failing = TEN.slice(2).sort((x, y) => x.level - y.level || (x.id < y.id ? -1 : 1));
      expect(rows).toEqual(failing.map((f) => [f.name, String(f.level), '1 of 1', 'acme/c']));
      const widget = table.closest('section')!;
      expect(widget.textContent).toContain(
        'Ranked for the target, level 3 · Standardized: by how many of the organization’s 1 repository below it each fix brings there, with the fewest other fixes; as many, the lowest level first.',
      );
    },
  );

  it(
    'a team at the target has nothing to fix for it, and its repositories open with the team kept',
    { timeout: SLOW },
    async () => {
      // jsdom lays nothing out: a box the size of a screen lets the virtual table of repositories draw its rows.
      vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(720);
      stubReadiness(REPORTS, OWNERS);
      renderWithApp(<ReadinessPage />, { url: '/readiness?team=Eng', config: STORE });
      expect(
        await screen.findByText(
          'Every repository is at level 3 · Standardized or above: the target is met.',
          {},
          { timeout: 10_000 },
        ),
      ).toBeTruthy();
      const repos = screen.getByRole('table', { name: 'Repositories and their latest readiness' });
      expect(within(repos).getByRole('link', { name: 'acme/a' }).getAttribute('href')).toBe(
        '/readiness/github.com%2Facme%2Fa?team=Eng',
      );
    },
  );

  it("a team's view says its own spread and target, from its repositories only", { timeout: SLOW }, async () => {
    const stub = stubReadiness(REPORTS, OWNERS);
    renderWithApp(<ReadinessPage />, { url: '/readiness?team=Eng', config: STORE });
    expect(await screen.findByRole('heading', { level: 1, name: 'Readiness · Eng' })).toBeTruthy();
    expect((await spreadRows()).map((r) => r[1])).toEqual(['0', '1', '1', '0', '0', '2']);
    expect(screen.getByTestId('readiness-target').textContent).toBe(
      '✓ Target met: all 2 repositories are at level 3 · Standardized or above.',
    );
    expect(stub.asked('/api/readiness')[0]!.searchParams.getAll('team')).toEqual(['Eng']);
  });

  it(
    'a team owning no repository is told how to give it some, and nothing says its repositories are at the top',
    {
      timeout: SLOW,
    },
    async () => {
      stubReadiness(REPORTS, OWNERS);
      renderWithApp(<ReadinessPage />, { url: '/readiness?team=Sales', config: STORE });
      const note = await screen.findByText(/The team mapping names no repositories for Sales/, {}, { timeout: 10_000 });
      expect(note.closest('[role="status"]')!.textContent).toContain('Add a repos column to the mapping');
      expect(await screen.findByText('No repository to read.')).toBeTruthy();
      expect(screen.queryByText('Every repository is at the top level.')).toBeNull();
    },
  );

  it('without a store, walks the service’s reports and shows the same spread', { timeout: SLOW }, async () => {
    const stub = stubReadiness(REPORTS, OWNERS);
    renderWithApp(<ReadinessPage />, { url: '/readiness', config: TEST_CONFIG });
    expect((await spreadRows()).map((r) => r[1])).toEqual(['1', '1', '1', '1', '0', '3']);
    expect(stub.asked('/api/organization/maturity-level-reports')).toHaveLength(1);
    expect(stub.asked('/api/readiness')).toEqual([]);
    expect(screen.queryByRole('table', { name: 'Readiness by team' })).toBeNull();
  });
});
