// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ORG_ONLY_NOTE } from '../../components/OrgOnlyNote';
import { productivityDay, stubDashboard } from '../../test/analytics-fixtures';
import { cardDefinitions, undefinedCards } from '../../test/kpi';
import { TEST_CONFIG, renderWithApp } from '../../test/render';
import ProductivityPage from './ProductivityPage';

const CONFIG = { ...TEST_CONFIG, teams: true };
const ORG = { productivity: [productivityDay({ git_commits: 4_000 })] };
const TEAM = { productivity: [productivityDay({ git_commits: 17 })] };

describe('ProductivityPage for a team', () => {
  it("shows the team's commits, and the note in place of languages and extensions", async () => {
    const stub = stubDashboard(ORG, TEAM);
    renderWithApp(<ProductivityPage />, { url: '/productivity?team=Engineering', config: CONFIG });
    await screen.findAllByText('17');
    expect(stub.asked('/api/teams/analytics/productivity')[0]?.searchParams.getAll('team')).toEqual(['Engineering']);
    expect(stub.asked('/api/v1/analytics/productivity')).toEqual([]);
    for (const title of ['Operations by language', 'Operations by file extension']) {
      const region = screen.getByRole('region', { name: title });
      expect(within(region).getByRole('note').textContent).toBe(ORG_ONLY_NOTE);
    }
    expect(screen.queryByText('TypeScript')).toBeNull();
  });

  it('ignores a team in the URL when the server has no teams', async () => {
    const stub = stubDashboard(ORG, TEAM);
    renderWithApp(<ProductivityPage />, { url: '/productivity?team=Engineering', config: TEST_CONFIG });
    await screen.findAllByText('4,000');
    expect(stub.asked('/api/teams/analytics/productivity')).toEqual([]);
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.queryByText('Team:')).toBeNull();
  });
});

describe('ProductivityPage cards', () => {
  it('say how each is counted: commits and pull requests are those made through the agent', async () => {
    stubDashboard(ORG, TEAM);
    renderWithApp(<ProductivityPage />, { url: '/productivity', config: CONFIG });
    await screen.findAllByText('4,000');
    expect(cardDefinitions().map(([label]) => label)).toEqual([
      'Files created',
      'Files edited',
      'Commits',
      'Pull requests',
    ]);
    expect(undefinedCards()).toEqual([]);
    const said = Object.fromEntries(cardDefinitions());
    expect(said['Commits']).toMatch(/^Commits: Commits made through the agent, summed over the range’s days/);
    expect(said['Pull requests']).toMatch(/^Pull requests: Pull requests created through the agent/);
  });
});
