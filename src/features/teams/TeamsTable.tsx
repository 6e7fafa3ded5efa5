import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import type { TeamSummaryRow } from '../../api/teams';
import { CellContent, SortableHead, useColumnFormats, type Column } from '../../components/DataTable';
import {
  CARD_CELL,
  CARD_ROW,
  CARD_TABLE,
  CARD_TEXT,
  FIRST_CELL,
  PhoneSort,
  TableBox,
  usePhoneRows,
} from '../../components/TableFrame';
import { SCREEN_HIGH } from '../../components/VirtualTable';
import type { SortState } from '../../data/search';
import { rowName } from './columns';
import { isOrganization, isUnassigned, teamHref, treeOrder } from './shaping';

/**
 * The teams as a tree: the organization's totals first, the top-level teams, Unassigned last; a team
 * with sub-teams has a button that shows or hides them. A sort orders the teams among their siblings,
 * so every sub-team stays under its parent. Each column has one number format over every team (the
 * organization's row included), and the team's name stays in place while the figures scroll sideways.
 * On a phone, its first rows and a "Show more", in the page.
 */
export function TeamsTable({
  caption,
  rows,
  columns,
  sort,
  onSort,
  expanded,
  onToggle,
  link,
  maxHeight = SCREEN_HIGH,
}: {
  caption: string;
  rows: readonly TeamSummaryRow[];
  columns: readonly Column<TeamSummaryRow>[];
  sort: SortState;
  onSort: (s: SortState) => void;
  expanded: ReadonlySet<string>;
  onToggle: (team: string) => void;
  /** The address of a page, keeping the reader's range. */
  link: (path: string) => string;
  maxHeight?: string;
}) {
  const visible = useMemo(() => treeOrder(rows, columns, sort, expanded), [rows, columns, sort, expanded]);
  const formats = useColumnFormats(columns, rows);
  const [, ...figures] = columns;
  const phone = usePhoneRows(visible.length, caption);
  return (
    <>
      <PhoneSort caption={caption} columns={columns} sort={sort} onSort={onSort} />
      <TableBox caption={caption} maxHeight={maxHeight} measure={[visible, columns]} inPage>
        <table className={`w-full text-sm ${CARD_TABLE}`}>
          <caption className="sr-only">{caption}</caption>
          <SortableHead columns={columns} sort={sort} onSort={onSort} />
          <tbody>
            {visible.map((r, i) => {
              const org = isOrganization(r);
              const open = expanded.has(r.team);
              const name = rowName(r);
              return (
                <tr
                  key={r.team}
                  className={`border-t border-line-subtle ${org ? 'bg-surface-muted font-medium' : 'bg-surface'} ${CARD_ROW} ${phone.hide(i)}`}
                  data-depth={r.depth}
                >
                  <th scope="row" className={`py-1.5 pr-3 text-left font-normal whitespace-nowrap ${FIRST_CELL}`}>
                    <span
                      className="flex items-center gap-1"
                      style={{ paddingLeft: `${Math.max(0, r.depth - 1) * 1.25}rem` }}
                    >
                      {r.hasChildren ? (
                        <button
                          type="button"
                          aria-expanded={open}
                          aria-label={`Sub-teams of ${name}`}
                          onClick={() => onToggle(r.team)}
                          className="inline-flex size-5 items-center justify-center rounded text-fg-muted hover:bg-surface-muted hover:text-fg"
                        >
                          <span aria-hidden>{open ? '▾' : '▸'}</span>
                        </button>
                      ) : (
                        <span className="inline-block size-5" aria-hidden />
                      )}
                      {org ? (
                        <span className="font-semibold text-fg">{name}</span>
                      ) : (
                        <Link
                          to={link(teamHref(r.team))}
                          className={`underline ${isUnassigned(r) ? 'text-fg-muted' : 'text-accent-strong'}`}
                          title={r.team}
                        >
                          {name}
                        </Link>
                      )}
                    </span>
                  </th>
                  {figures.map((c) => (
                    <td
                      key={c.id}
                      data-label={c.header}
                      className={`py-1.5 pr-3 whitespace-nowrap ${c.numeric ? 'text-right tabular-nums' : CARD_TEXT} ${CARD_CELL}`}
                    >
                      <CellContent column={c} row={r} format={formats.get(c.id)} />
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableBox>
      {phone.more}
    </>
  );
}
