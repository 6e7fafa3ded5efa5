// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useNavigate } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { TEAMS_ANSWER, stubDashboard } from '../test/analytics-fixtures';
import { TEST_CONFIG, renderWithApp } from '../test/render';
import { summary, TeamSelect } from './TeamSelect';

const CONFIG = { ...TEST_CONFIG, teams: true };

function Back() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => void navigate(-1)}>
      Back
    </button>
  );
}

async function renderSelect(url = '/', teams = TEAMS_ANSWER) {
  stubDashboard({}, {}, teams);
  const r = renderWithApp(
    <>
      <TeamSelect />
      <Back />
    </>,
    { url, config: CONFIG },
  );
  const button = await screen.findByRole('button', { name: /^Team:/ });
  const panel = () => screen.getByRole('dialog', { name: 'Team' });
  const open = () => {
    fireEvent.click(button);
    return panel();
  };
  const box = (path: string) => within(panel()).getByRole<HTMLInputElement>('checkbox', { name: path });
  /** The team boxes in the order shown. */
  const listed = () =>
    [...within(panel()).getByRole('list', { name: 'Teams' }).querySelectorAll('input[type="checkbox"]')].map((c) =>
      c.getAttribute('aria-label'),
    );
  return { ...r, button, panel, open, box, listed, teams: () => r.params().getAll('team') };
}

describe('TeamSelect', () => {
  it('lists the team tree in order, indented, with each team’s people and Unassigned last', async () => {
    const s = await renderSelect();
    expect(s.button.textContent).toContain('All teams');
    expect(s.button.getAttribute('aria-expanded')).toBe('false');
    s.open();
    expect(s.button.getAttribute('aria-expanded')).toBe('true');
    expect(s.listed()).toEqual([
      'Engineering',
      'Engineering/Platform',
      'Engineering/Platform/Infra',
      'Engineering/Apps',
      'Sales',
      'Unassigned',
    ]);
    const indent = (path: string) => s.box(path).closest('label')!.style.paddingInlineStart;
    expect(indent('Engineering')).toBe('0.25rem');
    expect(indent('Engineering/Platform')).toBe('1.5rem');
    expect(indent('Engineering/Platform/Infra')).toBe('2.75rem');
    expect(s.box('Engineering/Platform').closest('label')!.textContent).toBe('Platform7 people');
    expect(s.box('Unassigned').closest('label')!.textContent).toBe('Unassigned2 people');
    // The filter box has the focus, ready for typing.
    expect(document.activeElement).toBe(within(s.panel()).getByRole('searchbox', { name: 'Filter teams' }));
  });

  it('writes the team chosen to the URL, and the button names it', async () => {
    const s = await renderSelect('/tools?start=2026-05-01&end=2026-05-31');
    s.open();
    fireEvent.click(s.box('Engineering/Platform'));
    expect(s.teams()).toEqual(['Engineering/Platform']);
    expect(s.params().get('start')).toBe('2026-05-01');
    // By its path: a bare "Platform" could be any team of that name.
    expect(s.button.textContent).toContain('Engineering/Platform');
    expect(s.box('Engineering/Platform').checked).toBe(true);
  });

  it('names a deep team by its last two parts, the whole path on hover', async () => {
    const s = await renderSelect('/tools?team=Engineering%2FPlatform%2FInfra');
    expect(s.button.textContent).toContain('…/Platform/Infra');
    expect(s.button.getAttribute('title')).toBe('Engineering/Platform/Infra');
    expect(summary(['Data/Auth'])).toBe('Data/Auth');
    expect(summary(['Sales'])).toBe('Sales');
  });

  it('chooses several teams, which the button counts, and a team includes its sub-teams', async () => {
    const s = await renderSelect();
    s.open();
    fireEvent.click(s.box('Sales'));
    fireEvent.click(s.box('Engineering/Platform/Infra'));
    expect(s.teams()).toEqual(['Engineering/Platform/Infra', 'Sales']);
    expect(s.button.textContent).toContain('2 teams');
    // Choosing the parent replaces its chosen sub-team; the sub-teams show as included, not choosable.
    fireEvent.click(s.box('Engineering'));
    expect(s.teams()).toEqual(['Engineering', 'Sales']);
    expect(s.box('Engineering/Apps').checked).toBe(true);
    expect(s.box('Engineering/Apps').disabled).toBe(true);
    expect(s.box('Engineering/Apps').closest('label')!.textContent).toContain('in Engineering');
    // Unchecking a team takes it out.
    fireEvent.click(s.box('Sales'));
    expect(s.teams()).toEqual(['Engineering']);
    // Each choice is a step of the history: Back returns to the previous selection.
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(s.teams()).toEqual(['Engineering', 'Sales']));
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(s.teams()).toEqual(['Engineering/Platform/Infra', 'Sales']));
  });

  it('"All teams" clears the selection and closes, giving the focus back to the button', async () => {
    const s = await renderSelect('/?team=Sales&team=Engineering');
    expect(s.button.textContent).toContain('2 teams');
    s.open();
    expect(s.box('Sales').checked).toBe(true);
    fireEvent.click(within(s.panel()).getByRole('button', { name: /^All teams/ }));
    expect(s.teams()).toEqual([]);
    expect(s.params().has('team')).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(s.button.textContent).toContain('All teams');
    expect(document.activeElement).toBe(s.button);
  });

  it('filters a large list by any part of the path', async () => {
    const many = {
      ...TEAMS_ANSWER,
      teams: Array.from({ length: 300 }, (_, i) => ({
        path: `Dept ${i}`,
        name: `Dept ${i}`,
        members: i,
        managers: [],
        children: [{ path: `Dept ${i}/Squad`, name: 'Squad', members: 1, managers: [], children: [] }],
      })),
    };
    const s = await renderSelect('/', many);
    s.open();
    expect(s.listed()).toHaveLength(601);
    fireEvent.change(within(s.panel()).getByRole('searchbox', { name: 'Filter teams' }), {
      target: { value: 'dept 12' },
    });
    expect(s.listed()).toEqual([
      'Dept 12',
      'Dept 12/Squad',
      'Dept 120',
      'Dept 120/Squad',
      'Dept 121',
      'Dept 121/Squad',
      'Dept 122',
      'Dept 122/Squad',
      'Dept 123',
      'Dept 123/Squad',
      'Dept 124',
      'Dept 124/Squad',
      'Dept 125',
      'Dept 125/Squad',
      'Dept 126',
      'Dept 126/Squad',
      'Dept 127',
      'Dept 127/Squad',
      'Dept 128',
      'Dept 128/Squad',
      'Dept 129',
      'Dept 129/Squad',
    ]);
    // Filtered, a sub-team shows its whole path.
    expect(s.box('Dept 12/Squad').closest('label')!.textContent).toContain('Dept 12/Squad');
    fireEvent.change(within(s.panel()).getByRole('searchbox', { name: 'Filter teams' }), {
      target: { value: 'nowhere' },
    });
    expect(within(s.panel()).getByText('No team matches “nowhere”.')).toBeTruthy();
  });

  it('is keyboard usable: arrows move between the boxes, Escape closes and returns to the button', async () => {
    const s = await renderSelect();
    fireEvent.keyDown(s.button, { key: 'ArrowDown' });
    const filter = within(s.panel()).getByRole('searchbox', { name: 'Filter teams' });
    fireEvent.keyDown(filter, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(s.box('Engineering'));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(s.box('Engineering/Platform'));
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement).toBe(s.box('Unassigned'));
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(filter);
    fireEvent.keyDown(filter, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(s.button);
  });

  it('closes on a click outside, keeping the selection', async () => {
    const s = await renderSelect();
    s.open();
    fireEvent.click(s.box('Sales'));
    fireEvent.pointerDown(s.panel());
    expect(screen.getByRole('dialog', { name: 'Team' })).toBeTruthy();
    fireEvent.pointerDown(document.body);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(s.teams()).toEqual(['Sales']);
  });

  it('is not shown when the mapping has no teams, unless the URL names some (so they can be cleared)', async () => {
    const none = { ...TEAMS_ANSWER, source: 'none' as const, teams: [], unassigned: 20 };
    stubDashboard({}, {}, none);
    const r = renderWithApp(<TeamSelect />, { config: CONFIG });
    await waitFor(() => expect(r.client.getQueryData(['teams', 'tree'])).toBeDefined());
    expect(screen.queryByRole('button', { name: /^Team:/ })).toBeNull();
    r.unmount();

    const s = await renderSelect('/?team=Gone', none);
    s.open();
    expect(s.listed()).toEqual(['Gone']);
    expect(s.box('Gone').closest('label')!.textContent).toContain('not in the mapping');
    fireEvent.click(s.box('Gone'));
    expect(s.teams()).toEqual([]);
  });
});
