import { describe, expect, it } from 'vitest';
import { effectiveTeams, pageRefusal, type Me } from './me';

const me = (over: Partial<Me>): Me => ({
  email: 'ann@acme.example',
  name: 'Ann',
  role: 'viewer',
  teams: [],
  userId: 'u-ann',
  orgView: true,
  ...over,
});

describe('what a signed-in reader may open', () => {
  it('opens everything without sign-in, and to an admin', () => {
    for (const path of ['/users', '/users/u-bob', '/teams', '/teams/Sales', '/settings/teams']) {
      expect(pageRefusal(undefined, path)).toBeNull();
      expect(pageRefusal(me({ role: 'admin' }), path)).toBeNull();
    }
  });

  it('keeps the mapping screen from managers, and nothing else', () => {
    const m = me({ role: 'manager', teams: ['Sales'] });
    expect(pageRefusal(m, '/settings/teams')).toMatch(/admins/);
    for (const path of ['/', '/users', '/users/u-bob', '/teams', '/teams/Sales', '/compare'])
      expect(pageRefusal(m, path)).toBeNull();
  });

  it('keeps other people’s rows and the teams from a viewer, and opens their own page', () => {
    const v = me({});
    expect(pageRefusal(v, '/users')).toMatch(/other people/);
    expect(pageRefusal(v, '/users/u-bob')).toMatch(/managers and admins/);
    expect(pageRefusal(v, '/users/u-ann')).toBeNull();
    expect(pageRefusal(v, `/users/${encodeURIComponent('u ann')}`)).not.toBeNull();
    expect(pageRefusal(me({ userId: 'u ann' }), `/users/${encodeURIComponent('u ann')}`)).toBeNull();
    expect(pageRefusal(v, '/users/%E0%A4%A')).not.toBeNull(); // a broken escape is nobody's page
    expect(pageRefusal(me({ userId: null }), '/users/u-ann')).not.toBeNull();
    expect(pageRefusal(v, '/teams')).toMatch(/teams/);
    expect(pageRefusal(v, '/teams/Sales')).toMatch(/teams/);
    expect(pageRefusal(v, '/compare')).toMatch(/teams/);
    expect(pageRefusal(v, '/settings/budgets')).toMatch(/budgets/);
    expect(pageRefusal(me({ role: 'manager', teams: ['Sales'] }), '/settings/budgets')).toBeNull();
    for (const path of ['/', '/tools', '/activity', '/productivity', '/readiness', '/readiness/acme%2Fapi'])
      expect(pageRefusal(v, path)).toBeNull();
  });

  it('opens the reconciliation to admins and managers, not to a viewer nor a manager kept from the organization', () => {
    expect(pageRefusal(me({ role: 'admin' }), '/reconciliation')).toBeNull();
    expect(pageRefusal(me({ role: 'manager', teams: ['Sales'] }), '/reconciliation')).toBeNull();
    expect(pageRefusal(me({}), '/reconciliation')).toMatch(/^The reconciliation is shown to managers/);
    expect(pageRefusal(me({ role: 'manager', teams: ['Sales'], orgView: false }), '/reconciliation')).toMatch(
      /organization totals, which are not shown to managers here/,
    );
    expect(pageRefusal(me({ role: 'manager', teams: ['Sales'], orgView: false }), '/teams')).toBeNull();
  });

  it('limits a manager who may not see the organization to their teams, unless the URL names some', () => {
    const m = me({ role: 'manager', teams: ['Eng/Platform', 'Sales'], orgView: false });
    expect(effectiveTeams(m, [])).toEqual(['Eng/Platform', 'Sales']);
    expect(effectiveTeams(m, ['Sales'])).toEqual(['Sales']);
    expect(effectiveTeams(me({ role: 'manager', teams: ['Sales'] }), [])).toEqual([]);
    expect(effectiveTeams(undefined, [])).toEqual([]);
  });
});
