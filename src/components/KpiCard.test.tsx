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
          { label: 'Standard credits', value: 119, previous: 100 },
          { label: 'Credits falling', value: 80, previous: 100 },
          // More active people is good news, fewer bad.
          { label: 'Active people', value: 12, previous: 10, definition: DEFINITIONS.activePeople },
          { label: 'Weekly active people', value: 8, previous: 10, definition: DEFINITIONS.weeklyActivePeople },
          // A cost per commit falling is good news.
          { label: 'Credits per commit', value: 90, previous: 100, definition: DEFINITIONS.creditsPerCommit },
        ]}
      />,
    );
    expect(changeOf('Standard credits').textContent).toBe('▲ +19% vs previous period');
    expect(changeOf('Standard credits').className).toBe('text-fg-soft');
    expect(changeOf('Credits falling').className).toBe('text-fg-soft');
    expect(changeOf('Active people').className).toBe('text-success');
    expect(changeOf('Weekly active people').className).toBe('text-danger');
    expect(changeOf('Credits per commit').textContent).toBe('▼ −10% vs previous period');
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
    expect(changeOf('Active people').textContent).toBe('▲ +20% vs April');
  });

  it('colour a table cell alike', () => {
    const { container, rerender } = render(<Change now={12} before={10} />);
    expect(container.firstElementChild!.className).toBe('text-fg-soft');
    rerender(<Change now={12} before={10} better="up" />);
    expect(container.firstElementChild!.className).toBe('text-success');
    rerender(<Change now={8} before={10} better="up" />);
    expect(container.firstElementChild!.className).toBe('text-danger');
    expect(container.textContent).toBe('▼ −20%');
  });
});
