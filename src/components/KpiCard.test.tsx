// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFINITIONS } from '../lib/definitions';
import { renderWithApp } from '../test/render';
import { Change } from './Change';
import { KpiGrid } from './KpiGrid';

/** The change line of the KPI card labelled `label`. */
const changeOf = (label: string) =>
  screen.getByText(label, { selector: 'p' }).parentElement!.querySelector('p:last-child span')!;

describe('change colours', () => {
  it("colour a change by its figure's good way, and a usage count's in neither colour", () => {
    renderWithApp(
      <KpiGrid
        hasPrevious
        items={[
          // Spend and credits rising are neither good nor bad: neutral, with the arrow saying the way.
          { label: 'Standard credits', value: 119, previous: 100, definition: DEFINITIONS.standardCredits },
          { label: 'Credits falling', value: 80, previous: 100, definition: DEFINITIONS.standardCredits },
          // More active people is good news, fewer bad.
          { label: 'Active people', value: 12, previous: 10, definition: DEFINITIONS.activePeople },
          { label: 'Weekly active people', value: 8, previous: 10, definition: DEFINITIONS.weeklyActivePeople },
          // A cost per commit falling is good news.
          { label: 'Credits per commit', value: 90, previous: 100, definition: DEFINITIONS.creditsPerCommit },
        ]}
      />,
    );
    expect(changeOf('Standard credits').textContent).toBe('▲ +19.0% vs previous period');
    expect(changeOf('Standard credits').className).toBe('text-fg-soft');
    expect(changeOf('Credits falling').className).toBe('text-fg-soft');
    expect(changeOf('Active people').className).toBe('text-success');
    expect(changeOf('Weekly active people').className).toBe('text-danger');
    expect(changeOf('Credits per commit').textContent).toBe('▼ −10.0% vs previous period');
    expect(changeOf('Credits per commit').className).toBe('text-success');
  });

  it('say what a calendar month is compared with', () => {
    renderWithApp(
      <KpiGrid
        hasPrevious
        items={[{ label: 'Active people', value: 12, previous: 10, definition: DEFINITIONS.activePeople }]}
      />,
      { url: '/?start=2026-05-01&end=2026-05-31' },
    );
    expect(changeOf('Active people').textContent).toBe('▲ +20.0% vs April');
  });

  it('read alike side by side: one decimal in every change of a row', () => {
    renderWithApp(
      <KpiGrid
        hasPrevious
        items={[
          { label: 'Sessions', value: 108, previous: 100, definition: DEFINITIONS.sessions },
          { label: 'Messages', value: 107.9, previous: 100, definition: DEFINITIONS.messages },
        ]}
      />,
    );
    expect(changeOf('Sessions').textContent).toBe('▲ +8.0% vs previous period');
    expect(changeOf('Messages').textContent).toBe('▲ +7.9% vs previous period');
  });

  it('say "from 0" when the earlier period had none, and "no earlier period" only when there is none', () => {
    const { unmount } = renderWithApp(
      <KpiGrid
        hasPrevious
        items={[
          { label: 'Pull requests', value: 4, previous: 0, definition: DEFINITIONS.pullRequests },
          { label: 'Commits', value: 0, previous: 0, definition: DEFINITIONS.commits },
          // A share's change is in percentage points, not relative to it.
          { label: 'Adoption', value: 0.66, previous: 0.62, points: true, definition: DEFINITIONS.adoption },
          // No change to say: the hint starts the line, not indented after nothing.
          { label: 'Members', value: 74, hint: 'as the mapping stands now', definition: DEFINITIONS.members },
        ]}
      />,
    );
    expect(screen.getByText('as the mapping stands now').className).toBe('');
    expect(changeOf('Pull requests').textContent).toBe('▲ from 0 vs previous period');
    expect(changeOf('Commits').textContent).toBe('■ 0.0% vs previous period');
    expect(changeOf('Adoption').textContent).toBe('▲ +4.0 pts vs previous period');
    expect(changeOf('Adoption').className).toBe('text-success');
    unmount();
    renderWithApp(
      <KpiGrid
        hasPrevious={false}
        items={[{ label: 'Pull requests', value: 4, previous: 0, definition: DEFINITIONS.pullRequests }]}
      />,
    );
    expect(changeOf('Pull requests').textContent).toBe('no earlier period');
  });

  it('colour a table cell alike', () => {
    const { container, rerender } = render(<Change now={12} before={10} />);
    expect(container.firstElementChild!.className).toBe('text-fg-soft');
    rerender(<Change now={12} before={10} better="up" />);
    expect(container.firstElementChild!.className).toBe('text-success');
    rerender(<Change now={8} before={10} better="up" />);
    expect(container.firstElementChild!.className).toBe('text-danger');
    expect(container.textContent).toBe('▼ −20.0%');
  });
});
