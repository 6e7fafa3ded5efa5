// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { ReadinessReport } from '../../api/schemas';
import { cardDefinitions, undefinedCards } from '../../test/kpi';
import { TEN, stubReadiness, tenReport } from '../../test/readiness-fixtures';
import { TEST_CONFIG, renderWithApp } from '../../test/render';
import RepoPage from './RepoPage';

const SLOW = 20_000;
const STORE = { ...TEST_CONFIG, teams: true };
// a: 10 % (level 1), then 50 % (level 3): the first five of the ten criteria pass.
const REPORTS = [tenReport('a1', 'a', '2026-03-01', 1), tenReport('a2', 'a', '2026-03-05', 5)];
const FAILING = TEN.slice(5);
// From 50 % to 60 % takes one criterion; all five failing ones are 0/1, so the lowest level, then the first by id.
const FIRST = [...FAILING].sort((x, y) => x.level - y.level || (x.id < y.id ? -1 : 1))[0]!;

/** A report of acme/e: `pass` and `fail` known criteria, and `agents_md_freshness`, outside the known list. */
const eReport = (id: string, day: string, pass: string[], fail: string[], unknown: number): ReadinessReport => ({
  ...tenReport(id, 'e', day, 0),
  report: Object.fromEntries([
    ...pass.map((c) => [c, { numerator: 1, denominator: 1, rationale: '' }]),
    ...fail.map((c) => [c, { numerator: 0, denominator: 1, rationale: '' }]),
    ['agents_md_freshness', { numerator: unknown, denominator: 1, rationale: 'Stale' }],
  ]),
});
const E_PASS = ['lint_config', 'type_check', 'readme'];
const E_REPORTS = [
  // 3 of 4 (75 %, level 4): 80 % takes the one criterion outside the list.
  eReport('e1', '2026-03-01', E_PASS, [], 0),
  // 3 of 15 (20 %, level 2): 40 % takes three; eight of level 3 to 5 and one outside the list among the twelve.
  eReport(
    'e2',
    '2026-03-05',
    E_PASS,
    [
      'code_modularization',
      'build_performance_tracking',
      'fast_ci_feedback',
      'cyclomatic_complexity',
      'naming_consistency',
      'dead_code_detection',
      'agents_md',
      'build_cmd_doc',
      'deps_pinned',
      'unit_tests_exist',
      'env_template',
    ],
    0,
  ),
];

const renderRepo = (search = '') => {
  stubReadiness(REPORTS, { 'github.com/acme/a': 'Eng' });
  return renderWithApp(
    <Routes>
      <Route path="/readiness/:repo" element={<RepoPage />} />
    </Routes>,
    { url: `/readiness/github.com%2Facme%2Fa${search}`, config: STORE },
  );
};

const scorecardItems = () =>
  within(screen.getByRole('region', { name: 'Scorecard' }))
    .getAllByRole('listitem')
    .map((li) => li.querySelector('summary')!.textContent);

describe('RepoPage', () => {
  it('says how each card is counted, of the report shown', { timeout: SLOW }, async () => {
    renderRepo();
    await screen.findByRole('region', { name: 'What to fix first' }, { timeout: 10_000 });
    expect(cardDefinitions().map(([label]) => label)).toEqual([
      'Level',
      'Pass rate',
      'To next level',
      'Passed',
      'Failed',
      'Skipped',
    ]);
    expect(undefinedCards()).toEqual([]);
    const said = Object.fromEntries(cardDefinitions());
    expect(said['Level']).toBe(
      'Level: The repository’s readiness level (1 Functional to 5 Autonomous) from the pass rate of the report shown, its latest unless an earlier one is chosen: 1 below 20\u00a0%, 2 from 20\u00a0%, 3 from 40\u00a0%, 4 from 60\u00a0%, 5 from 80\u00a0%.',
    );
    expect(said['Skipped']).toMatch(/left out of the pass rate, and so of the level\.$/);
  });

  it(
    'puts what to fix first above the details, and marks the same criteria in the scorecard',
    { timeout: SLOW },
    async () => {
      renderRepo();
      const plan = await screen.findByRole('region', { name: 'What to fix first' }, { timeout: 10_000 });
      expect(plan.textContent).toContain(
        'Fix this criterion to go from level 3 · Standardized (50%) to level 4 · Optimized (60%):',
      );
      expect(
        within(plan)
          .getAllByRole('link')
          .map((a) => [a.textContent, a.getAttribute('href')]),
      ).toEqual([[FIRST.name, `#criterion-${FIRST.id}`]]);
      // The plan comes before the report's details in the page.
      const details = screen.getByRole('region', { name: 'Report details' });
      expect(plan.compareDocumentPosition(details) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      const marked = scorecardItems().filter((t) => t!.includes('fix first'));
      expect(marked).toEqual([`${FIRST.name}fix first · 10/1✗ Failed`]);
    },
  );

  it('downloads the plan as CSV, one row per criterion to fix', { timeout: SLOW }, async () => {
    renderRepo();
    const plan = await screen.findByRole('region', { name: 'What to fix first' }, { timeout: 10_000 });
    const blobs: Blob[] = [];
    let name = '';
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = (b: Blob) => (blobs.push(b), 'blob:plan');
    URL.revokeObjectURL = () => {};
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      name = this.download;
    });
    try {
      fireEvent.click(within(plan).getByRole('button', { name: 'Download the plan as CSV' }));
      expect(name).toBe('readiness-plan-github.com_acme_a-a2.csv');
      const text = await new Promise<string>((done) => {
        const reader = new FileReader();
        reader.onload = () => done(String(reader.result));
        reader.readAsText(blobs[0]!);
      });
      const lines = text.trim().split('\r\n');
      expect(lines[0]).toBe('step,criterion,name,level,pillar,numerator,denominator,failing_apps,from_level,to_level');
      expect(lines.slice(1)).toHaveLength(1);
      expect(lines[1]!.split(',').slice(0, 3)).toEqual(['1', FIRST.id, FIRST.name]);
      expect(lines[1]!.split(',').slice(-5)).toEqual(['0', '1', '1', '3', '4']);
    } finally {
      click.mockRestore();
      Object.assign(URL, { createObjectURL, revokeObjectURL });
    }
  });

  it('lists the failed criteria only when asked, and keeps the choice in the URL', { timeout: SLOW }, async () => {
    const r = renderRepo();
    await screen.findByRole('region', { name: 'Scorecard' }, { timeout: 10_000 });
    expect(scorecardItems()).toHaveLength(10);
    fireEvent.click(screen.getByRole('button', { name: 'Failed only (5)' }));
    expect(r.params().get('criteria')).toBe('failed');
    const items = scorecardItems();
    expect(items).toHaveLength(5);
    expect(items.every((t) => t!.endsWith('0/1✗ Failed'))).toBe(true);
    expect(items.map((t) => t!.replace(/fix first · \d/, '').replace('0/1✗ Failed', '')).sort()).toEqual(
      FAILING.map((c) => c.name).sort(),
    );
    fireEvent.click(screen.getByRole('button', { name: 'All (10)' }));
    expect(r.params().has('criteria')).toBe(false);
    expect(scorecardItems()).toHaveLength(10);
  });

  it('an earlier report opened with failed only: its own failures and its own plan', { timeout: SLOW }, async () => {
    renderRepo('?report=a1&criteria=failed');
    const plan = await screen.findByRole('region', { name: 'What to fix first' }, { timeout: 10_000 });
    // At 10 %: one more criterion reaches 20 %, level 2.
    expect(plan.textContent).toContain(
      'Fix this criterion to go from level 1 · Functional (10%) to level 2 · Documented (20%), as of this earlier report:',
    );
    expect(scorecardItems()).toHaveLength(9);
  });

  it('shows the pass rate per pillar, named, in percent as the cards are', { timeout: SLOW }, async () => {
    renderRepo();
    const region = await screen.findByRole('region', { name: 'Pass rate per pillar' }, { timeout: 10_000 });
    const summary = within(region).getByRole('figure').getAttribute('aria-label')!;
    const [p1, p2, p3, p4, p5] = [...new Set(TEN.map((c) => c.pillar))];
    // Weakest first; each pillar's two criteria, of which the first five of the report pass.
    expect(summary).toBe(
      `Pass rate per pillar: ${[p4, p5]
        .sort()
        .map((p) => `${p} 0% (0 of 2 criteria pass)`)
        .join(', ')}, ${p3} 50% (1 of 2 criteria pass), ${[p1, p2]
        .sort()
        .map((p) => `${p} 100% (2 of 2 criteria pass)`)
        .join(', ')}.`,
    );
    expect(screen.getByText('Pass rate').parentElement!.textContent).toContain('50%');
    expect(screen.queryByRole('region', { name: 'Score per criterion' })).toBeNull();
  });

  it(
    'a 2 → 3 plan of the lowest levels, in level order, named as the scorecard names them',
    { timeout: SLOW },
    async () => {
      stubReadiness(E_REPORTS, { 'github.com/acme/e': 'Eng' });
      const r = renderWithApp(
        <Routes>
          <Route path="/readiness/:repo" element={<RepoPage />} />
        </Routes>,
        { url: '/readiness/github.com%2Facme%2Fe?team=Eng', config: STORE },
      );
      const plan = await screen.findByRole('region', { name: 'What to fix first' }, { timeout: 10_000 });
      expect(plan.textContent).toContain(
        'Fix these 3 criteria to go from level 2 · Documented (20%) to level 3 · Standardized (40%):',
      );
      expect(
        within(plan)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual([
        'Environment Template level 1 · Development Environment · 0/1',
        'Unit Tests Exist level 1 · Testing · 0/1',
        'Agent Instructions File level 2 · Documentation · 0/1',
      ]);
      // The way back keeps the team the repository was opened from.
      expect(screen.getByRole('link', { name: '← All repositories' }).getAttribute('href')).toBe('/readiness?team=Eng');
      // The earlier report's plan is the criterion outside the list, named as its scorecard entry is.
      fireEvent.change(screen.getByRole('combobox', { name: 'Report' }), { target: { value: 'e1' } });
      expect(r.params().get('report')).toBe('e1');
      await waitFor(() =>
        expect(
          within(screen.getByRole('region', { name: 'What to fix first' }))
            .getAllByRole('listitem')
            .map((li) => li.textContent),
        ).toEqual(['Agents md freshness Other, not in the known list · 0/1']),
      );
      expect(scorecardItems()).toContain('Agents md freshnessfix first · 10/1✗ Failed');
    },
  );
});
