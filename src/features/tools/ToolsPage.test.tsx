// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFINITIONS } from '../../lib/definitions';
import { activityDay, stubDashboard, toolDay } from '../../test/analytics-fixtures';
import { cardDefinitions, undefinedCards } from '../../test/kpi';
import { TEST_CONFIG, createTestQueryClient, renderWithApp } from '../../test/render';
import ToolsPage from './ToolsPage';

const CONFIG = { ...TEST_CONFIG, teams: true };
const RANGE = 'start=2026-05-01&end=2026-05-31';
// The organization's day and the team's differ in every figure a page could show.
// Tool calls per user turn: the organization's 9,000 ÷ 1,000 user messages (the days' average says 3), the
// team's 42 ÷ 20 (the days' average says 3 too).
const ORG = {
  tools: [toolDay({ tool_calls: 9_000, skills_invocations: 500 })],
  activity: [activityDay({ user_messages: 1_000 })],
};
const TEAM = {
  tools: [toolDay({ tool_calls: 42, skills_invocations: 3 })],
  activity: [activityDay({ user_messages: 20 })],
};

const ORG_ONLY_WIDGETS = [
  'Tool calls per tool',
  'Tools',
  'External tool servers',
  'Skills',
  'Slash commands',
  'Hooks',
  'Autonomy levels',
];

/** The value line of the KPI card labelled `label`. */
const kpi = (label: string) => screen.getByText(label, { selector: 'p' }).parentElement!;

describe('ToolsPage for a team', () => {
  it("asks the team endpoint (this period and the previous one) and never the organization's", async () => {
    const stub = stubDashboard(ORG, TEAM);
    renderWithApp(<ToolsPage />, { url: `/tools?${RANGE}&team=Engineering/Platform`, config: CONFIG });
    await screen.findByText('42');
    const asked = stub.asked('/api/teams/analytics/tools');
    expect(asked.map((u) => u.searchParams.getAll('team'))).toEqual([
      ['Engineering/Platform'],
      ['Engineering/Platform'],
    ]);
    // May is a calendar month: its previous period is April.
    expect(asked.map((u) => u.searchParams.get('startDate')).sort()).toEqual(['2026-04-01', '2026-05-01']);
    // Not the organization's days, nor calls per tool name (organization-only, no team answer).
    expect(stub.asked('/api/v1/analytics/tools')).toEqual([]);
  });

  it('says which team the figures are for, and shows the team’s own numbers', async () => {
    stubDashboard(ORG, TEAM);
    renderWithApp(<ToolsPage />, { url: `/tools?${RANGE}&team=Engineering/Platform`, config: CONFIG });
    const scope = screen.getByText('Team:').parentElement!;
    expect(scope.textContent).toContain('Engineering/Platform');
    expect(scope.textContent).toContain('members only');
    await screen.findByText('42');
    expect(kpi('Tool calls').textContent).toContain('42');
    expect(kpi('Skill activations').textContent).toContain('3');
    expect(screen.queryByText('9,000')).toBeNull();
  });

  it('shows only what a team can have, and lists the organization-only figures in one note with a way back', async () => {
    stubDashboard(ORG, TEAM);
    renderWithApp(<ToolsPage />, { url: `/tools?${RANGE}&team=Sales`, config: CONFIG });
    await screen.findByText('42');
    // No box per organization-only figure: not one region, nor a card, nor a note inside a widget.
    for (const title of ORG_ONLY_WIDGETS) expect(screen.queryByRole('region', { name: title })).toBeNull();
    expect(screen.queryByText('External tool-server calls')).toBeNull();
    expect(screen.getAllByRole('note')).toHaveLength(1);
    const note = screen.getByRole('complementary', { name: 'For the whole organization only' });
    expect(within(note).getByRole('note').textContent).toBe(
      'For the whole organization only, not split by team: tool calls per tool, external tool-server calls and servers, ' +
        'which skills, slash commands and hooks ran, autonomy levels, and people using the web interface. The tool calls, skill ' +
        'activations, slash commands and hook executions above are the sums of the team members’ own counts.',
    );
    // The way back keeps the range and drops the team.
    expect(within(note).getByRole('link', { name: 'See the whole organization' }).getAttribute('href')).toBe(
      `/tools?${RANGE}`,
    );
    // The widgets a team has, with the team's numbers; the organization's names appear nowhere.
    for (const title of [
      'Autonomy (the service’s figure): tool calls per user turn',
      'Per session',
      'People using external tool servers',
    ])
      expect(await screen.findByRole('region', { name: title })).toBeTruthy();
    expect(screen.queryByText('Read')).toBeNull();
    expect(screen.queryByText('github')).toBeNull();
  });

  it('draws a team’s users of tool servers without the web interface’s series', async () => {
    stubDashboard(ORG, TEAM);
    renderWithApp(<ToolsPage />, { url: `/tools?${RANGE}&team=Sales`, config: CONFIG });
    const region = await screen.findByRole('region', { name: 'People using external tool servers' });
    await screen.findByText('42');
    fireEvent.click(within(region).getByRole('button', { name: /as a table/ }));
    const headers = within(within(region).getByRole('table')).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual(['Day (UTC)', 'People using external tool servers']);
  });

  it('offers no way back to the organization to a manager who may not see it', async () => {
    stubDashboard(ORG, TEAM);
    const client = createTestQueryClient();
    client.setQueryData(['me'], {
      email: 'm@acme.example',
      name: null,
      role: 'manager',
      teams: ['Sales'],
      userId: null,
      orgView: false,
    });
    renderWithApp(<ToolsPage />, { url: `/tools?${RANGE}`, config: { ...CONFIG, signIn: true }, client });
    const note = await screen.findByRole('complementary', { name: 'For the whole organization only' });
    expect(within(note).queryByRole('link')).toBeNull();
  });

  it('shows tool calls per user turn as the range’s tool calls over its user messages, with its definition', async () => {
    const stub = stubDashboard(ORG, TEAM);
    renderWithApp(<ToolsPage />, { url: `/tools?${RANGE}`, config: CONFIG });
    const card = kpi('Tool calls per user turn');
    await within(card).findByText('9.0');
    expect(within(card).getByRole('button', { name: 'About Tool calls per user turn' })).toBeTruthy();
    expect(stub.asked('/api/v1/analytics/activity').map((u) => u.searchParams.get('startDate'))).toContain(
      '2026-05-01',
    );
    // The service's per-day figure stays, under its own title.
    expect(
      await screen.findByRole('region', { name: 'Autonomy (the service’s figure): tool calls per user turn' }),
    ).toBeTruthy();
    expect(DEFINITIONS.toolCallsPerTurn.label).toBe('Tool calls per user turn');
  });

  it('says how each card is counted, summed over the range’s days', async () => {
    stubDashboard(ORG, TEAM);
    renderWithApp(<ToolsPage />, { url: `/tools?${RANGE}`, config: CONFIG });
    await within(kpi('Tool calls per user turn')).findByText('9.0');
    expect(cardDefinitions().map(([label]) => label)).toEqual([
      'Tool calls',
      'External tool-server calls',
      'Skill activations',
      'Slash commands',
      'Hook executions',
      'Tool calls per user turn',
    ]);
    expect(undefinedCards()).toEqual([]);
    expect(Object.fromEntries(cardDefinitions())['Skill activations']).toBe(
      'Skill activations: Times the agent activated a skill, summed over the range’s days.',
    );
  });

  it('shows a team’s tool calls per user turn from the team’s own tools and activity answers', async () => {
    const stub = stubDashboard(ORG, TEAM);
    renderWithApp(<ToolsPage />, { url: `/tools?${RANGE}&team=Sales`, config: CONFIG });
    await within(kpi('Tool calls per user turn')).findByText('2.1');
    expect(stub.asked('/api/teams/analytics/activity').map((u) => u.searchParams.getAll('team'))).toContainEqual([
      'Sales',
    ]);
    expect(stub.asked('/api/v1/analytics/activity')).toEqual([]);
  });

  it('for the whole organization, asks the service and shows every widget without a note', async () => {
    const stub = stubDashboard(ORG, TEAM);
    renderWithApp(<ToolsPage />, { url: `/tools?${RANGE}`, config: CONFIG });
    await screen.findAllByText('9,000');
    expect(stub.asked('/api/teams/analytics/tools')).toEqual([]);
    expect(stub.asked('/api/v1/analytics/tools').map((u) => u.searchParams.get('group_by'))).toContain('tool_name');
    await screen.findByRole('region', { name: 'Autonomy levels' });
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.queryByText('Team:')).toBeNull();
  });
});
