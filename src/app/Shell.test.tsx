// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { stubDashboard, toolDay } from '../test/analytics-fixtures';
import type { Me } from '../data/me';
import { TEST_CONFIG, createTestQueryClient, renderWithApp } from '../test/render';
import { Shell } from './Shell';

function renderShell(url: string, teams: boolean, me?: Me, privacyMinGroup?: number) {
  const stub = stubDashboard({ tools: [toolDay()] });
  const client = createTestQueryClient();
  if (me) client.setQueryData(['me'], me);
  const r = renderWithApp(
    <Routes>
      <Route element={<Shell />}>
        <Route path="*" element={<p>The page</p>} />
      </Route>
    </Routes>,
    {
      url,
      config: { ...TEST_CONFIG, teams, signIn: me !== undefined, ...(privacyMinGroup && { privacyMinGroup }) },
      client,
    },
  );
  const nav = () => screen.getByRole('navigation', { name: 'Pages' });
  const link = (name: string) => within(nav()).getByRole('link', { name });
  return { ...r, stub, nav, link };
}

/** The search parameters of a link. */
const paramsOf = (a: HTMLElement) => new URLSearchParams(a.getAttribute('href')!.split('?')[1] ?? '');

describe('Shell with teams', () => {
  it('shows the team selector and the teams pages only when the server has teams', async () => {
    const without = renderShell('/', false);
    expect(within(without.nav()).queryByRole('link', { name: 'Teams' })).toBeNull();
    expect(within(without.nav()).getByRole('link', { name: 'Usage' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Team:/ })).toBeNull();
    expect(without.stub.asked('/api/teams')).toEqual([]);
    without.unmount();

    const withTeams = renderShell('/', true);
    expect(withTeams.link('Teams')).toBeTruthy();
    expect(await screen.findByRole('button', { name: /^Team:/ })).toBeTruthy();
  });

  it('every page link carries every selected team, with the range', async () => {
    const s = renderShell('/tools?team=Sales&team=Engineering&start=2026-05-01&end=2026-05-31&servers=split', true);
    for (const name of ['Usage', 'Tools', 'Activity', 'Productivity', 'Users']) {
      const p = paramsOf(s.link(name));
      expect(p.getAll('team')).toEqual(['Sales', 'Engineering']);
      expect(p.get('start')).toBe('2026-05-01');
      expect(p.has('servers')).toBe(false);
    }
    expect((await screen.findByRole('button', { name: /^Team:/ })).textContent).toContain('2 teams');
  });

  it("prefetches a page's figures for the selected teams on hover of its link", async () => {
    const s = renderShell('/?team=Sales&start=2026-05-01&end=2026-05-31', true);
    fireEvent.mouseEnter(s.link('Tools'));
    await waitFor(() => expect(s.stub.asked('/api/teams/analytics/tools').length).toBeGreaterThan(0));
    const [first] = s.stub.asked('/api/teams/analytics/tools');
    expect(first?.searchParams.getAll('team')).toEqual(['Sales']);
    expect(first?.searchParams.get('startDate')).toBe('2026-05-01');
    // Neither the organization's figures nor the organization-only grouping are asked for.
    expect(s.stub.asked('/api/v1/analytics/tools')).toEqual([]);
  });

  it('marks the Teams page in the navigation on the team comparison, and only there besides the teams pages', async () => {
    const compare = renderShell('/compare?team=Eng&team=Sales', true);
    expect(compare.link('Teams').className).toContain('bg-accent-muted');
    expect(compare.link('Usage').className).not.toContain('bg-accent-muted');
    compare.unmount();
    const usage = renderShell('/', true);
    expect(usage.link('Teams').className).not.toContain('bg-accent-muted');
  });

  it('shows the team selector on the teams overview, not on a team’s own page', async () => {
    const overview = renderShell('/teams', true);
    expect(await screen.findByRole('button', { name: /^Team:/ })).toBeTruthy();
    overview.unmount();
    renderShell('/teams/Engineering', true);
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Team:/ })).toBeNull());
  });

  it('shows the team selector on the readiness pages (the chosen teams’ repositories), without the date range', async () => {
    const readiness = renderShell('/readiness', true);
    expect(await screen.findByRole('button', { name: /^Team:/ })).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Date range' })).toBeNull();
    readiness.unmount();
    renderShell('/', true);
    expect(await screen.findByRole('group', { name: 'Date range' })).toBeTruthy();
  });
});

describe('Shell with sign-in', () => {
  const viewer: Me = {
    email: 'ann@acme.example',
    name: 'Ann Lee',
    role: 'viewer',
    teams: [],
    userId: 'u-ann',
    orgView: true,
  };

  it('shows a viewer the pages they may open, a link to their own page, and says so on the others', async () => {
    const s = renderShell('/users?start=2026-05-01&end=2026-05-31', true, viewer);
    expect(within(s.nav()).queryByRole('link', { name: 'Users' })).toBeNull();
    expect(within(s.nav()).queryByRole('link', { name: 'Teams' })).toBeNull();
    expect(s.link('Usage')).toBeTruthy();
    const own = screen.getByRole('link', { name: 'Ann Lee' });
    expect(own.getAttribute('href')).toMatch(/^\/users\/u-ann\?/);
    expect(paramsOf(own).get('start')).toBe('2026-05-01');
    expect(screen.getByRole('heading', { name: 'Not shown to you' })).toBeTruthy();
    expect(screen.queryByText('The page')).toBeNull();
    expect(screen.getByRole('link', { name: 'Your own page' })).toBeTruthy();
    expect(s.stub.asked('/api/users')).toEqual([]);
    s.unmount();

    renderShell('/users/u-ann', true, viewer);
    expect(screen.getByText('The page')).toBeTruthy();
  });

  it('says privacy mode on every page, and keeps a manager from another person’s page, not from their own', () => {
    const manager: Me = { ...viewer, role: 'manager', teams: ['Sales'] };
    const s = renderShell('/users/u-bob', true, manager, 5);
    expect(screen.getByRole('note').textContent).toBe(
      'Privacy mode: groups under 5 people are not shown; people are pseudonymous.',
    );
    expect(screen.getByText(/a person’s page is shown to admins and to the person themself/)).toBeTruthy();
    expect(s.link('Users')).toBeTruthy();
    s.unmount();
    const own = renderShell('/users/u-ann', true, manager, 5);
    expect(screen.getByText('The page')).toBeTruthy();
    own.unmount();
    renderShell('/users/u-bob', true, { ...viewer, role: 'admin' }, 5);
    expect(screen.getByText('The page')).toBeTruthy();
    expect(screen.getByRole('note').textContent).toMatch(/You see names, and each view of a named person is logged/);
  });

  it('says nothing of privacy mode when it is off', () => {
    renderShell('/', true, { ...viewer, role: 'manager', teams: ['Sales'] });
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('keeps the mapping screen for admins', () => {
    renderShell('/settings/teams', true, { ...viewer, role: 'manager', teams: ['Sales'] });
    expect(screen.getByRole('heading', { name: 'Not shown to you' })).toBeTruthy();
  });

  it('shows a manager who may not see the organization their own teams, with no "All teams"', async () => {
    renderShell('/', true, { ...viewer, role: 'manager', teams: ['Sales'], orgView: false });
    const button = await screen.findByRole('button', { name: /^Team:/ });
    expect(button.textContent).toContain('Sales');
    fireEvent.click(button);
    expect(screen.queryByRole('button', { name: /All teams/ })).toBeNull();
    expect(screen.getByRole('button', { name: /My teams/ })).toBeTruthy();
  });
});
