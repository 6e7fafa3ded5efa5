import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors';
import { ROWS } from './fixtures';
import { combinedSource, comparedRows, comparedTeams, countProblem, refusal, sideBySide } from './compare';

const RANGE = { start: '2026-05-10', end: '2026-05-13' };
const apiError = (status: number, detail: string) =>
  new ApiError({ status, title: 'x', detail, endpoint: '/api/teams/analytics/tokens' });

describe('the team comparison', () => {
  it('keys each team by its place, never by its path (a dot in a path is a path to recharts)', () => {
    expect(comparedTeams(['Data.Science', 'Sales'])).toEqual([
      { path: 'Data.Science', key: 'team0', index: 0 },
      { path: 'Sales', key: 'team1', index: 1 },
    ]);
  });

  it.each([
    [[], 'Choose 2 to 5 teams to compare: no team is chosen yet.'],
    [['Sales'], 'Choose 2 to 5 teams to compare: only Sales is chosen. Add at least one more.'],
    [['A', 'B'], null],
    [['A', 'B', 'C', 'D', 'E'], null],
    [
      ['A', 'B', 'C', 'D', 'E', 'F'],
      'A comparison shows 2 to 5 teams side by side; 6 are chosen (A, B, C, D, E, F). Remove 1 of them.',
    ],
  ])('says when %j is not 2 to 5 teams', (teams, said) => {
    expect(countProblem(teams)).toBe(said);
  });

  it('takes the server’s own words for a team it refuses (unknown: 400, not the reader’s: 403), and nothing else', () => {
    expect(refusal(apiError(400, 'No team is called "Gone" in the mapping in force.'))).toBe(
      'No team is called "Gone" in the mapping in force.',
    );
    expect(refusal(apiError(403, 'You see the figures of Sales; "Data" is not one of them.'))).toBe(
      'You see the figures of Sales; "Data" is not one of them.',
    );
    expect(refusal(apiError(503, 'The service is unavailable.'))).toBeNull();
    expect(refusal(new Error('offline'))).toBeNull();
    expect(refusal(null)).toBeNull();
  });

  it('takes the compared teams’ summary rows in the URL’s order, leaving out a team without one', () => {
    const rows = comparedRows(ROWS, comparedTeams(['Sales', 'Gone', 'Engineering/Platform']));
    expect(rows.map((r) => [r.team, r.current.credits])).toEqual([
      ['Sales', 8_000],
      ['Engineering/Platform', 40_000],
    ]);
  });

  it('puts each team’s days side by side, a day without a row counting 0, once every team’s days are in', () => {
    const teams = comparedTeams(['A', 'B']);
    const a = [
      { date: '2026-05-10', v: 5 },
      { date: '2026-05-12', v: 7 },
    ];
    const b = [{ date: '2026-05-13', v: 2 }];
    expect(sideBySide(RANGE, teams, [a, undefined], (r) => r.v)).toBeUndefined();
    expect(sideBySide(RANGE, teams, [a, b], (r) => r.v)).toEqual([
      { date: '2026-05-10', team0: 5, team1: 0 },
      { date: '2026-05-11', team0: 0, team1: 0 },
      { date: '2026-05-12', team0: 7, team1: 0 },
      { date: '2026-05-13', team0: 0, team1: 2 },
    ]);
    // Only the days the dashboard keeps: none before the history starts.
    expect(sideBySide({ start: '2026-01-12', end: '2026-01-14' }, teams, [[], []], () => 1)).toEqual([
      { date: '2026-01-14', team0: 0, team1: 0 },
    ]);
  });

  it('combines the teams’ queries: pending until all are in, the first failure shown, every failed one asked again', () => {
    const refetchA = vi.fn();
    const refetchB = vi.fn();
    const ok = { data: 1, status: 'success' as const, refetch: vi.fn() };
    expect(combinedSource([ok, { data: undefined, status: 'pending' }], undefined).status).toBe('pending');
    expect(combinedSource([ok, { ...ok, isPlaceholderData: true }], [1]).isPlaceholderData).toBe(true);
    const failed = combinedSource(
      [
        ok,
        { data: undefined, status: 'error', error: 'first', refetch: refetchA },
        { data: undefined, status: 'error', error: 'second', refetch: refetchB },
      ],
      undefined,
    );
    expect(failed.status).toBe('error');
    expect(failed.error).toBe('first');
    failed.refetch?.();
    expect(refetchA).toHaveBeenCalledOnce();
    expect(refetchB).toHaveBeenCalledOnce();
    expect(ok.refetch).not.toHaveBeenCalled();
  });
});
