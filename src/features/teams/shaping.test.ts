import { describe, expect, it } from 'vitest';
import { teamColumns } from './columns';
import { ROWS, summaryRow } from './fixtures';
import { ancestorsOf, lastPart, subTeamsOf, teamHref, treeOrder, trendChange } from './shaping';

const RANGE = { start: '2026-05-02', end: '2026-05-31' };
const columns = teamColumns(RANGE);
const order = (rows = ROWS, column = 'credits', dir: 'asc' | 'desc' = 'desc', expanded: Set<string> | 'all' = 'all') =>
  treeOrder(rows, columns, { column, dir }, expanded).map((r) => r.team);

describe('treeOrder', () => {
  it('puts the organization first, sorts siblings under their parent, and keeps Unassigned last', () => {
    expect(order()).toEqual([
      '',
      'Engineering',
      'Engineering/Platform',
      'Engineering/Platform/Infra',
      'Engineering/Apps',
      'R&D Lab',
      'Sales',
      'Unassigned',
    ]);
    // Fewest credits first: Unassigned (1,000) would lead, but stays last.
    expect(order(ROWS, 'credits', 'asc')).toEqual([
      '',
      'Sales',
      'R&D Lab',
      'Engineering',
      'Engineering/Apps',
      'Engineering/Platform',
      'Engineering/Platform/Infra',
      'Unassigned',
    ]);
  });

  it('shows only the sub-teams of expanded teams', () => {
    expect(order(ROWS, 'credits', 'desc', new Set(['Engineering/Platform']))).toEqual([
      '',
      'Engineering',
      'R&D Lab',
      'Sales',
      'Unassigned',
    ]);
    expect(order(ROWS, 'credits', 'desc', new Set(['Engineering']))).toEqual([
      '',
      'Engineering',
      'Engineering/Platform',
      'Engineering/Apps',
      'R&D Lab',
      'Sales',
      'Unassigned',
    ]);
  });

  it('shows a sub-team whose parent is missing from the answer at the top level rather than dropping it', () => {
    const rows = [summaryRow(''), summaryRow('Ops/Night', { current: { credits: 5 } }), summaryRow('Unassigned')];
    expect(order(rows)).toEqual(['', 'Ops/Night', 'Unassigned']);
  });

  it('orders teams without a value (no members: no adoption) last in either direction', () => {
    const rows = [
      summaryRow('A', { current: { members: 4, active: 1 } }),
      summaryRow('Empty', { current: { members: 0, active: 0 } }),
      summaryRow('B', { current: { members: 4, active: 3 } }),
    ];
    expect(order(rows, 'adoption', 'desc')).toEqual(['B', 'A', 'Empty']);
    expect(order(rows, 'adoption', 'asc')).toEqual(['A', 'B', 'Empty']);
  });
});

describe('team paths', () => {
  it('encodes each part of a path and keeps the slashes', () => {
    expect(teamHref('Engineering/Platform/Infra')).toBe('/teams/Engineering/Platform/Infra');
    expect(teamHref('R&D Lab/Data #1?')).toBe('/teams/R%26D%20Lab/Data%20%231%3F');
  });

  it('lists the teams above a path, top first', () => {
    expect(ancestorsOf('A/B/C')).toEqual(['A', 'A/B']);
    expect(ancestorsOf('A')).toEqual([]);
    expect(lastPart('A/B/C')).toBe('C');
  });

  it('finds the direct sub-teams of a team only', () => {
    expect(subTeamsOf(ROWS, 'Engineering').map((r) => r.team)).toEqual(['Engineering/Platform', 'Engineering/Apps']);
    expect(subTeamsOf(ROWS, 'Sales')).toEqual([]);
  });
});

describe('trendChange', () => {
  it('compares the second half of the days with the first, leaving out the middle day of an odd count', () => {
    expect(trendChange([100, 100, 300, 300])).toBe(2);
    expect(trendChange([100, 999, 50])).toBe(-0.5);
    expect(trendChange([0, 0, 5, 5])).toBeNull();
    expect(trendChange([7])).toBeNull();
  });
});
