// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFINITIONS } from '../lib/definitions';
import { renderWithApp } from '../test/render';
import type { Column } from './DataTable';
import { DataTable } from './DataTable';
import { Defined } from './Definition';
import { KpiGrid } from './KpiGrid';

/** The text a screen reader hears as the button's description: what its aria-describedby points at. */
const description = (button: HTMLElement) =>
  (button.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
const tooltip = (button: HTMLElement) => document.getElementById(button.getAttribute('aria-describedby')!)!;

describe('DefinitionTip', () => {
  it('gives a KPI card a button named after the figure, described by its definition', () => {
    renderWithApp(
      <KpiGrid
        items={[
          { label: 'Tool calls per user turn', value: 8.6, definition: DEFINITIONS.toolCallsPerTurn },
          // Its definition still loading (the usage page's come after its first chart).
          { label: 'Tool calls', value: 100, definition: undefined },
        ]}
      />,
    );
    const button = screen.getByRole('button', { name: 'About Tool calls per user turn' });
    expect(description(button)).toBe(`Tool calls per user turn: ${DEFINITIONS.toolCallsPerTurn.meaning}`);
    // Only the cards whose definition is in have one.
    expect(screen.getAllByRole('button', { name: /^About / })).toHaveLength(1);
    // The card's label stays its own paragraph, the card its parent.
    const label = screen.getByText('Tool calls per user turn', { exact: true, selector: 'p' });
    expect(within(label.parentElement!).getByRole('button')).toBe(button);
  });

  it('shows the sentence on hover, on focus and on a click, and hides it on Escape and on leaving', () => {
    renderWithApp(<Defined definition={DEFINITIONS.activePeople}>115 active people</Defined>);
    const button = screen.getByRole('button', { name: 'About Active people' });
    expect(tooltip(button).hidden).toBe(true);
    expect(screen.queryByRole('tooltip')).toBeNull();

    fireEvent.mouseEnter(button);
    expect(screen.getByRole('tooltip').textContent).toContain(DEFINITIONS.activePeople.meaning);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    fireEvent.mouseLeave(button);
    expect(screen.queryByRole('tooltip')).toBeNull();

    fireEvent.focus(button);
    expect(screen.getByRole('tooltip')).toBeTruthy();
    fireEvent.keyDown(button, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();

    // A tap pins it open (touch has no hover); a second one closes it.
    fireEvent.click(button);
    expect(screen.getByRole('tooltip')).toBeTruthy();
    fireEvent.click(button);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('puts a column header’s definition beside its sort button, leaving the header’s text its label', () => {
    type Row = { team: string; ratio: number };
    const columns: Column<Row>[] = [
      { id: 'team', header: 'Team', value: (r) => r.team },
      {
        id: 'ratio',
        header: 'Tool calls per user turn',
        value: (r) => r.ratio,
        numeric: true,
        definition: DEFINITIONS.toolCallsPerTurn,
      },
    ];
    renderWithApp(
      <DataTable
        id="t"
        caption="Teams"
        columns={columns}
        rows={[{ team: 'A', ratio: 2 }]}
        rowKey={(r) => r.team}
        defaultSort={{ column: 'ratio', dir: 'desc' }}
      />,
    );
    const header = screen.getByRole('columnheader', { name: /^Tool calls per user turn/ });
    expect(within(header).getByRole('button', { name: /^Tool calls per user turn/ })).toBeTruthy();
    const info = within(header).getByRole('button', { name: 'About Tool calls per user turn' });
    expect(description(info)).toContain(DEFINITIONS.toolCallsPerTurn.meaning);
    expect(header.textContent?.replace(/[▲▼↕]/g, '').trim()).toBe('Tool calls per user turn');
    // Sorting still works from the header's own button.
    fireEvent.click(within(header).getByRole('button', { name: /^Tool calls per user turn/ }));
    expect(header.getAttribute('aria-sort')).toBe('ascending');
  });
});
