// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Goal } from '../../api/goals';
import type { Mark } from '../../api/marks';
import type { Me } from '../../data/me';
import { TEST_CONFIG, captureDownloads, createTestQueryClient, renderWithApp } from '../../test/render';
import { goal, json } from './fixtures';
import { GoalWidget } from './GoalWidget';

// The chart has a width to draw in (jsdom lays nothing out): its marks' flags are drawn.
vi.mock('../../components/use-width', () => ({ useWidth: () => [{ current: null }, 600] as const }));

const TEAM = 'Engineering/Platform';
const SIGNED_IN = { ...TEST_CONFIG, teams: true, signIn: true };
const MANAGER: Me = {
  email: 'bo@acme.com',
  name: null,
  role: 'manager',
  teams: ['Engineering'],
  userId: null,
  orgView: true,
};
const MARK: Mark = {
  id: 'm1',
  day: '2026-04-29',
  team: TEAM,
  text: 'Pairing sessions',
  source: 'user',
  author: null,
  updatedAt: null,
  editable: false,
};

/** The server: the team's goals (as `goals` holds them), its marks, and the writes (each recorded). */
function stubServer(initial: Goal[], refuse?: string) {
  let goals = initial;
  const writes: { method: string; path: string; body: unknown }[] = [];
  const asked: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://dashboard.test');
      asked.push(url);
      const method = init?.method ?? 'GET';
      if (method !== 'GET') {
        const body = init?.body ? JSON.parse(String(init.body)) : undefined;
        writes.push({ method, path: url.pathname, body });
        if (refuse) return json({ title: 'Bad Request', detail: refuse }, 400);
        if (method === 'DELETE') {
          goals = [];
          return json({ removed: 'g' });
        }
        const set = goal({
          team: TEAM,
          target: body.target,
          by: body.by,
          status: 'on-course',
          value: 0.62,
          editable: true,
        });
        goals = [set];
        return json(set, method === 'POST' ? 201 : 200);
      }
      if (url.pathname === '/api/goals') return json({ latest: '2026-05-31', goals });
      if (url.pathname === '/api/marks') return json({ marks: [MARK] });
      return json({ title: 'Not Found', detail: `No ${url.pathname}.` }, 404);
    }),
  );
  return { writes, asked };
}

function render(me: Me = MANAGER) {
  const client = createTestQueryClient();
  client.setQueryData(['me'], me);
  return renderWithApp(<GoalWidget team={TEAM} name="Platform" />, { config: SIGNED_IN, client });
}

describe('GoalWidget', () => {
  it('draws the weeks against the line to the goal and the projection, with the team’s marks, as a table and CSV', async () => {
    const { asked } = stubServer([
      goal({ team: TEAM, target: 0.8, by: '2026-06-30', status: 'off-course', value: 0.62 }),
    ]);
    const downloads = captureDownloads();
    render();
    const widget = await screen.findByRole('region', { name: 'Goal' });
    await within(widget).findByText('Off course');
    expect(widget.textContent).toContain('80\u00a0% of members weekly active by Jun 30');
    expect(widget.textContent).toContain(
      '62\u00a0% in the week of May 18, 2026 · projected 70\u00a0% in the week of Jun 22, 2026 · set from the week of May 18, 2026',
    );
    const figure = within(widget).getByRole('figure');
    expect(figure.getAttribute('aria-label')).toBe(
      "Platform's members weekly active, per week from the week of Apr 13, 2026, against the line to 80\u00a0% by Jun 30, 2026 and the projection: 6 weeks so far; 62\u00a0% of 80\u00a0% by Jun 30 · off course.",
    );
    // The line to the goal and the projection are dashed apart from the weeks counted, in the legend too.
    expect(figure.querySelectorAll('path[stroke-dasharray="6 4"]')).toHaveLength(1);
    expect(figure.querySelectorAll('path[stroke-dasharray="2 3"]')).toHaveLength(1);
    expect(figure.querySelectorAll('li line[stroke-dasharray]')).toHaveLength(2);
    for (const l of ['Members weekly active', 'Line to the goal', 'Projection'])
      expect(within(figure).getByText(l)).toBeTruthy();
    // The marks of the goal's weeks to the latest day: the team's, on its week.
    const marks = asked.find((u) => u.pathname === '/api/marks')!;
    expect([marks.searchParams.get('start'), marks.searchParams.get('end'), marks.searchParams.getAll('team')]).toEqual(
      ['2026-04-13', '2026-05-31', [TEAM]],
    );
    expect(
      await within(widget).findByRole('button', { name: /^Mark 1, Apr 29, 2026, Engineering\/Platform: Pairing/ }),
    ).toBeTruthy();
    // How it is counted.
    expect(within(widget).getByText('How this is counted')).toBeTruthy();
    expect(widget.textContent).toContain('The least-squares straight line through the last 6 whole weeks’ values');

    fireEvent.click(within(widget).getByRole('button', { name: 'Show the goal as a table' }));
    const table = within(widget).getByRole('table', { name: 'The goal of Platform, per week' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(9);
    expect(
      within(rows[6]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['May 18, 2026', '62\u00a0%', '62\u00a0%', '62\u00a0%']);
    expect(within(widget).getByRole('table', { name: 'Marks' })).toBeTruthy();

    fireEvent.click(within(widget).getByRole('button', { name: 'Download CSV of Goal' }));
    const lines = (await downloads.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('week,members_weekly_active,goal_line,projection,marks');
    expect(lines.find((l) => l.startsWith('2026-04-27'))).toBe(
      '2026-04-27,0.59,,0.62,2026-04-29 Engineering/Platform: Pairing sessions',
    );
    expect(lines.at(-1)).toBe('2026-06-22,,0.8,0.7,');
  });

  it('names a goal of active people at Moderate or above by its figure, in the chart, the table and the CSV', async () => {
    stubServer([
      {
        ...goal({ team: TEAM, target: 0.5, by: '2026-06-30', status: 'on-course', value: 0.45, editable: true }),
        kind: 'moderate-or-above',
      },
    ]);
    const downloads = captureDownloads();
    render();
    const widget = await screen.findByRole('region', { name: 'Goal' });
    await within(widget).findByText('On course');
    expect(widget.textContent).toContain('50\u00a0% of active people at moderate or above by Jun 30');
    expect(within(within(widget).getByRole('figure')).getByText('Active people at Moderate or above')).toBeTruthy();
    expect(within(widget).getByText('How this is counted').parentElement!.textContent).not.toContain(
      'Members weekly active',
    );
    fireEvent.click(within(widget).getByRole('button', { name: 'Download CSV of Goal' }));
    expect((await downloads.text()).split('\r\n')[0]).toBe('week,active_moderate_or_above,goal_line,projection,marks');
    fireEvent.click(within(widget).getByRole('button', { name: 'Change the goal' }));
    const form = within(widget).getByRole('form', { name: 'Change the goal' });
    expect((within(form).getByLabelText('Share of') as HTMLSelectElement).value).toBe('moderate-or-above');
    expect(
      within(form)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Members weekly active', 'Active people at Moderate or above']);
  });

  it('lets the team’s manager set a goal, showing what the server refuses, and change and remove it', async () => {
    const refused = 'The body says "target" is a share above 0 % and at most 100 % (0 to 1); got 1.5.';
    const server = stubServer([], refused);
    render();
    const widget = await screen.findByRole('region', { name: 'Goal' });
    expect(await within(widget).findByText('No goal is set for Platform.')).toBeTruthy();
    fireEvent.click(within(widget).getByRole('button', { name: 'Set a goal' }));
    const form = within(widget).getByRole('form', { name: 'Set a goal' });
    fireEvent.change(within(form).getByLabelText('Target (%)'), { target: { value: '150' } });
    fireEvent.change(within(form).getByLabelText('By (UTC)'), { target: { value: '2026-06-30' } });
    fireEvent.submit(form);
    expect((await within(form).findByRole('alert')).textContent).toBe(refused);
    expect(server.writes).toEqual([
      {
        method: 'POST',
        path: '/api/goals',
        body: { team: TEAM, kind: 'weekly-active', target: 1.5, by: '2026-06-30' },
      },
    ]);

    // Taken this time: the goal is drawn, and the manager may change or remove it.
    const ok = stubServer([]);
    fireEvent.change(within(form).getByLabelText('Target (%)'), { target: { value: '80' } });
    fireEvent.submit(form);
    await within(widget).findByText('On course');
    expect(ok.writes[0]).toEqual({
      method: 'POST',
      path: '/api/goals',
      body: { team: TEAM, kind: 'weekly-active', target: 0.8, by: '2026-06-30' },
    });
    fireEvent.click(within(widget).getByRole('button', { name: 'Change the goal' }));
    const change = within(widget).getByRole('form', { name: 'Change the goal' });
    expect((within(change).getByLabelText('Target (%)') as HTMLInputElement).value).toBe('80');
    fireEvent.change(within(change).getByLabelText('Target (%)'), { target: { value: '72.5' } });
    fireEvent.submit(change);
    await waitFor(() => expect(ok.writes).toHaveLength(2));
    expect(ok.writes[1]).toEqual({
      method: 'PUT',
      path: '/api/goals/goal-Engineering%2FPlatform',
      body: { kind: 'weekly-active', target: 0.725, by: '2026-06-30' },
    });
    fireEvent.click(await within(widget).findByRole('button', { name: 'Remove the goal' }));
    await within(widget).findByText('No goal is set for Platform.');
    expect(ok.writes[2]).toMatchObject({ method: 'DELETE', path: '/api/goals/goal-Engineering%2FPlatform' });
  });

  it('shows nothing to a reader who may not set one while none is set, and a goal without its figures to one', async () => {
    const viewer: Me = { ...MANAGER, role: 'viewer', teams: [] };
    stubServer([]);
    const { container } = render(viewer);
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled());
    await waitFor(() => expect(container.textContent).toBe(''));

    const withheld: Goal = {
      ...goal({ team: TEAM, target: 0.8, by: '2026-06-30', status: 'on-course', value: 0.6 }),
      progress: null,
      reason: 'Privacy mode (PRIVACY_MIN_GROUP=5): "Engineering/Platform" has fewer than 5 members.',
    };
    stubServer([withheld]);
    render();
    const widget = (await screen.findAllByRole('region', { name: 'Goal' })).at(-1)!;
    expect(await within(widget).findByRole('note')).toHaveProperty('textContent', withheld.reason);
    expect(within(widget).queryByRole('figure')).toBeNull();
    expect(within(widget).queryByRole('button', { name: 'Change the goal' })).toBeNull();
  });
});
