import type { UsersTableAnswer } from '../../api/users';
import { Defined } from '../../components/Definition';
import { DEFINITIONS } from '../../lib/definitions';
import { formatExact } from '../../lib/format';
import type { SeatList, Who } from '../../lib/user-columns';

type Counts = NonNullable<UsersTableAnswer['seats']>;
type Grace = UsersTableAnswer['grace'];

/** Each seat's list, its label and its count of the answer's. */
export const SEATS: readonly {
  id: SeatList;
  label: string;
  /** The label on a phone, where the five share one row. */
  short: string;
  count: keyof Counts;
  meaning: string;
}[] = [
  { id: 'named', label: 'Named', short: 'Named', count: 'named', meaning: DEFINITIONS.seats.meaning },
  {
    id: 'named-active',
    label: 'Active in the range',
    short: 'Active',
    count: 'active',
    meaning: 'People the mapping names with at least one day of activity in the range.',
  },
  {
    id: 'idle-7',
    label: DEFINITIONS.idle7.label,
    short: 'Idle 7 d',
    count: 'idle7',
    meaning: DEFINITIONS.idle7.meaning,
  },
  {
    id: 'idle-30',
    label: DEFINITIONS.idle30.label,
    short: 'Idle 30 d',
    count: 'idle30',
    meaning: DEFINITIONS.idle30.meaning,
  },
  {
    id: 'never',
    label: DEFINITIONS.neverUsed.label,
    short: 'Never',
    count: 'never',
    meaning: DEFINITIONS.neverUsed.meaning,
  },
];

/** "New starters in their first 14 days", or, with no days of grace, those given access after the range's end. */
export const newStarters = (n: number | null, days: number) =>
  `${n === null ? 'New starters' : `${formatExact(n)} new ${n === 1 ? 'starter' : 'starters'}`} ${
    days > 0
      ? `in their first ${formatExact(days)} ${days === 1 ? 'day' : 'days'}`
      : 'given access after the range’s end'
  }`;

/** "2 new starters in their first 14 days are not counted as inactive or never used". */
function graceLine(g: NonNullable<NonNullable<Grace>['seats']>, days: number): string {
  // Inactive 30 days is within inactive 7 days, and never used apart from both: each new starter is counted once.
  const n = g.idle7 !== null && g.never !== null ? g.idle7 + g.never : null;
  return `${newStarters(n, days)} ${n === 1 ? 'is' : 'are'} not counted as inactive or never used`;
}

/**
 * The seats view: the people the team mapping names, by how they used the agent, each count a button that opens
 * its list (the users table filtered so). A count privacy mode withholds (1 to k−1 people) reads "fewer than k".
 * Below, how many new starters in grace the inactive and never used counts leave out, when they leave some out.
 */
export function SeatsView({
  seats,
  grace,
  who,
  onOpen,
  teams,
}: {
  /** The counts, or undefined while they are read. */
  seats: Counts | undefined;
  /** The new starters in grace each unused count leaves out (absent: none said). */
  grace?: Grace;
  who: Who;
  onOpen: (list: SeatList) => void;
  teams: readonly string[];
}) {
  return (
    <section aria-labelledby="seats-title" className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-baseline gap-x-2 text-sm">
        <h2 id="seats-title" className="font-semibold">
          <Defined definition={DEFINITIONS.seats}>Seats</Defined>
        </h2>
        <span className="text-fg-muted">
          people the team mapping names{teams.length ? (teams.length > 1 ? ' in these teams' : ' in this team') : ''}:
          open a count for its list
        </span>
      </div>
      {/* One row on a phone too, so the list's first people stay on the first screen. */}
      <ul className="grid grid-cols-5 gap-1 sm:gap-1.5">
        {SEATS.map((s) => {
          const n = seats?.[s.count];
          const shown = n === undefined ? '…' : n === null ? 'few' : formatExact(n);
          const pressed = who === s.id;
          return (
            <li key={s.id} className="min-w-0">
              <button
                type="button"
                aria-pressed={pressed}
                aria-label={`${s.label}: ${n === null ? 'withheld in privacy mode' : shown}`}
                title={n === null ? `${s.meaning} Privacy mode: fewer people than its smallest group.` : s.meaning}
                onClick={() => onOpen(s.id)}
                className={`flex h-full w-full flex-col items-start rounded border px-1.5 py-1 text-left sm:px-2.5 sm:py-1.5 ${
                  pressed
                    ? 'border-surface-inverse bg-surface-inverse text-fg-inverse'
                    : 'border-line-strong bg-surface text-fg hover:bg-surface-muted'
                }`}
              >
                <span className={`text-xs leading-tight whitespace-nowrap ${pressed ? '' : 'text-fg-muted'}`}>
                  <span className="sm:hidden">{s.short}</span>
                  <span className="max-sm:hidden">{s.label}</span>
                </span>
                <span className="text-base leading-tight font-semibold tabular-nums sm:text-lg">{shown}</span>
              </button>
            </li>
          );
        })}
      </ul>
      {/* Not on a phone, where it would push the list's first people off the first screen: an open list says it. */}
      {grace?.seats && (grace.seats.idle7 !== 0 || grace.seats.never !== 0) && (
        <p className="text-xs text-fg-muted max-sm:hidden">
          <Defined definition={DEFINITIONS.newStarters}>
            <span>{graceLine(grace.seats, grace.days)}</span>
          </Defined>
        </p>
      )}
    </section>
  );
}
