// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FrictionAnswer, FrictionCriterion, FrictionSide, HeadroomRow } from '../../api/friction';
import { HeadroomList } from '../../components/HeadroomList';
import { FRICTION_CAVEAT } from '../../lib/definitions';
import { TEST_CONFIG, renderWithApp } from '../../test/render';
import { FrictionWidget } from './FrictionWidget';

const side = (teams: number, repositories: number, o: Partial<FrictionSide> = {}): FrictionSide => ({
  names: Array.from({ length: teams }, (_, i) => `Team ${i + 1}`),
  teams,
  repositories,
  activePeople: 20,
  toolCallsPerTurn: 7.25,
  creditsPerPr: 9_000,
  manualShare: 0.3,
  spendPerActiveMonth: 120,
  ...o,
});

const criterion = (id: string, shown: boolean, failing: FrictionSide, passing: FrictionSide): FrictionCriterion => ({
  id,
  name: id.replace(/_/g, ' '),
  level: 3,
  shown,
  failing,
  passing,
  spendDifference: shown ? (failing.spendPerActiveMonth ?? 0) - (passing.spendPerActiveMonth ?? 0) : null,
});

const row = (team: string, level: number, low: number, high: number): HeadroomRow => ({
  team,
  level,
  repositories: 2,
  toolCalls: 1_200,
  lowAutonomyShare: low,
  highAutonomyShare: high,
});

function answer(currency: string | null): FrictionAnswer {
  return {
    range: { start: '2026-05-02', end: '2026-05-31' },
    minTeams: 3,
    currency,
    teams: 9,
    criteria: [
      criterion(
        'integration_tests',
        true,
        side(5, 8, { spendPerActiveMonth: 150, manualShare: 0.42 }),
        side(3, 4, { spendPerActiveMonth: 110 }),
      ),
      criterion('large_files', true, side(4, 6), side(4, 5)),
      // Two teams on a side: compared by no figure, and said so.
      criterion('codeowners', false, side(7, 12, { toolCallsPerTurn: null }), side(2, 2, { toolCallsPerTurn: null })),
    ],
    headroom: { room: [row('Data', 4, 0.7, 0.3)], risk: [row('Mobile', 1, 0.2, 0.8), row('Web', 2, 0.4, 0.6)] },
  };
}

describe('FrictionWidget', () => {
  it('compares each criterion with 3 teams a side, the spend difference first, says it is no cause and what it leaves out', () => {
    renderWithApp(<FrictionWidget query={{ data: answer('USD') }} range="May 2 – May 31, 2026" />, {
      config: TEST_CONFIG,
    });
    const widget = screen.getByRole('region', { name: 'Friction by criterion' });
    expect(widget.textContent).toContain(FRICTION_CAVEAT);
    expect(widget.textContent).toContain('1 more criterion has fewer than 3 teams on a side and is not compared.');
    const table = within(widget).getByRole('table', { name: 'Friction by criterion' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent!.replace(/[▲▼↕]/g, '').trim());
    expect(headers.slice(0, 5)).toEqual([
      'Criterion',
      'Level',
      'Teams failing',
      'Teams passing',
      'Spend per active person per month, failing less passing',
    ]);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.querySelector('td')!.textContent)).toEqual(['integration tests', 'large files']);
    const first = rows[0]!;
    expect(first.querySelector('td[data-label="Teams failing"]')!.textContent).toBe('5');
    expect(first.querySelector('td[data-label="Teams failing"] span')!.getAttribute('title')).toBe(
      'Team 1, Team 2, Team 3, Team 4, Team 5',
    );
    expect(first.querySelector('td[data-label="Repositories failing"]')!.textContent).toBe('8');
    expect(first.querySelector('td[data-label="Run manually, failing"]')!.textContent).toBe('42%');
    expect(
      first.querySelector('td[data-label="Spend per active person per month, failing less passing"]')!.textContent,
    ).toBe('$40.00');
  });

  it('has no spend column without a price list, and a sentence when no criterion has 3 teams a side', () => {
    const none = { ...answer(null), criteria: answer(null).criteria.filter((c) => !c.shown) };
    const { unmount } = renderWithApp(<FrictionWidget query={{ data: answer(null) }} range="May 2026" />, {
      config: TEST_CONFIG,
    });
    expect(screen.queryByRole('columnheader', { name: /Spend per active person/ })).toBeNull();
    unmount();
    renderWithApp(<FrictionWidget query={{ data: none }} range="May 2026" />, { config: TEST_CONFIG });
    expect(screen.getByRole('region', { name: 'Friction by criterion' }).textContent).toContain(
      'No criterion has 3 teams or more whose repositories fail it and 3 or more whose repositories pass it',
    );
  });
});

describe('HeadroomList', () => {
  it('lists the teams with room to delegate and those at risk, each with its level and share of tool calls', () => {
    renderWithApp(<HeadroomList query={{ data: answer(null) }} range="May 2026" />, { config: TEST_CONFIG });
    const widget = screen.getByRole('region', { name: 'Delegation headroom' });
    const items = (name: string) =>
      within(within(widget).getByRole('region', { name }))
        .getAllByRole('listitem')
        .map((li) => li.textContent);
    expect(items('Room to delegate more')).toEqual([
      'Data · level 4 (2 repositories), 70% of 1,200 tool calls run manual or auto-low',
    ]);
    expect(items('A risk to look at')).toEqual([
      'Mobile · level 1 (2 repositories), 80% of 1,200 tool calls run auto-high or auto-medium',
      'Web · level 2 (2 repositories), 60% of 1,200 tool calls run auto-high or auto-medium',
    ]);
  });

  it('says when no team is in a list, and when no team owns a repository with a report', () => {
    const empty = { ...answer(null), headroom: { room: [], risk: [] } };
    const { unmount } = renderWithApp(<HeadroomList query={{ data: empty }} range="May 2026" />, {
      config: TEST_CONFIG,
    });
    expect(screen.getByRole('region', { name: 'Room to delegate more' }).textContent).toContain(
      'No team at level 3 or above runs most of its tool calls manual or auto-low.',
    );
    unmount();
    renderWithApp(<HeadroomList query={{ data: { ...empty, teams: 0 } }} range="May 2026" />, { config: TEST_CONFIG });
    expect(screen.getByRole('region', { name: 'Delegation headroom' }).textContent).toContain(
      'No team owns a repository with a readiness report among those shown.',
    );
  });
});
