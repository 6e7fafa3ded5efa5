// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ORG_ONLY_NOTE } from '../../components/OrgOnlyNote';
import { activityDay, stubDashboard } from '../../test/analytics-fixtures';
import { cardDefinitions, undefinedCards } from '../../test/kpi';
import { TEST_CONFIG, renderWithApp } from '../../test/render';
import ActivityPage from './ActivityPage';

const CONFIG = { ...TEST_CONFIG, teams: true };
const ORG = { activity: [activityDay({ sessions: 7_000 })] };
const TEAM = { activity: [activityDay({ sessions: 31 })] };

describe('ActivityPage for a team', () => {
  it("asks the team's days, never the organization-only clients, and shows the note in their place", async () => {
    const stub = stubDashboard(ORG, TEAM);
    renderWithApp(<ActivityPage />, { url: '/activity?team=Sales', config: CONFIG });
    await screen.findAllByText('31');
    expect(stub.asked('/api/teams/analytics/activity').map((u) => u.searchParams.getAll('team'))).toEqual([
      ['Sales'],
      ['Sales'],
    ]);
    expect(stub.asked('/api/v1/analytics/activity')).toEqual([]);
    const clients = await screen.findByRole('region', { name: 'Daily active people per client' });
    expect(within(clients).getByRole('note').textContent).toBe(ORG_ONLY_NOTE);
    expect(screen.queryByText('7,000')).toBeNull();
  });

  it('for the whole organization, asks the service for the days and per client', async () => {
    const stub = stubDashboard(ORG, TEAM);
    renderWithApp(<ActivityPage />, { url: '/activity', config: CONFIG });
    await screen.findAllByText('7,000');
    expect(stub.asked('/api/v1/analytics/activity').map((u) => u.searchParams.get('group_by'))).toContain('client');
    expect(stub.asked('/api/teams/analytics/activity')).toEqual([]);
  });
});

describe('ActivityPage cards', () => {
  it('writes a daily average of people with its one decimal and the thousands separator', async () => {
    const days = [
      activityDay({ date: '2026-05-10', daily_active_users: 1_141 }),
      activityDay({ date: '2026-05-11', daily_active_users: 1_142 }),
    ];
    stubDashboard({ activity: days });
    renderWithApp(<ActivityPage />, { url: '/activity?start=2026-05-10&end=2026-05-11' });
    const card = (await screen.findByText('Daily active people', { selector: 'p' })).parentElement!;
    await within(card).findByText('1,141.5');
  });

  it('say how each is counted, a team’s as the organization’s', async () => {
    stubDashboard(ORG, TEAM);
    renderWithApp(<ActivityPage />, { url: '/activity?team=Sales', config: CONFIG });
    await screen.findAllByText('31');
    expect(cardDefinitions().map(([label]) => label)).toEqual([
      'Daily active people',
      'Weekly active people',
      'Monthly active people',
      'Sessions',
      'Messages',
      'User messages',
    ]);
    expect(undefinedCards()).toEqual([]);
    expect(Object.fromEntries(cardDefinitions())['User messages']).toMatch(
      /^User messages: Messages people sent the agent \(their turns\), summed over the range’s days/,
    );
  });
});
