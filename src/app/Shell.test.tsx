// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { stubDashboard, toolDay } from '../test/analytics-fixtures';
import { TEST_CONFIG, renderWithApp } from '../test/render';
import { Shell } from './Shell';

function renderShell(url: string, teams: boolean) {
  const stub = stubDashboard({ tools: [toolDay()] });
  const r = renderWithApp(
    <Routes>
      <Route element={<Shell />}>
        <Route path="*" element={<p>The page</p>} />
      </Route>
    </Routes>,
    { url, config: { ...TEST_CONFIG, teams } },
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

  it('has no team selector on the readiness pages, which teams do not divide', () => {
    renderShell('/readiness', true);
    expect(screen.queryByRole('button', { name: /^Team:/ })).toBeNull();
  });
});
