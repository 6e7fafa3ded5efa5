/**
 * Reading a team mapping file (CSV or JSON) into rows, each with where it is in the file, for the rules of
 * mapping.ts: a file that cannot be read at all is refused here (its syntax, its size in rows, an empty file),
 * a row that cannot be read is said to the rules' sink by its line, and every other row is handed on as read.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { formatExact } from '../../lib/format';
import { lineAt, lineStarts } from '../core/text';
import { errorText } from '../core/log';

export const MAX_ROWS = 200_000;

/** Where a row is, for messages: `line 7` (CSV) or `entry 3 (line 12)` (JSON). */
export interface Where {
  line: number;
  entry?: number;
}

/** A row's values as read, before any check; `undefined` = absent. */
export interface RawRow {
  email?: string;
  userId?: string;
  team?: string;
  managers: string[];
  repos: string[];
  /** The day the user was given the agent, as written (`since`). */
  since?: string;
}

/** What takes the rows read: the mapping's rules. */
export interface RowSink {
  add(where: Where, row: RawRow): void;
  fail(where: Where | null, problem: string): void;
}

/** A file refused whole, with the line it stopped at when there is one. */
export interface Refusal {
  message: string;
  line: number | null;
}

const EXPECTED = 'expected email or user_id, team, manager, repos, since';
const COLUMNS = ['email', 'user_id', 'team', 'manager', 'repos', 'since'] as const;
type Column = (typeof COLUMNS)[number];
const isColumn = (s: string): s is Column => (COLUMNS as readonly string[]).includes(s);

const TOO_MANY_ROWS = `the file has more than ${formatExact(MAX_ROWS)} rows; the limit is ${formatExact(MAX_ROWS)}`;

/** Quoted for a message, cut when long. */
export function quote(s: string): string {
  const t = s.length > 80 ? `${s.slice(0, 77)}…` : s;
  return JSON.stringify(t);
}

/** Splits a cell of a list (managers, repositories): `a@x.com; b@x.com` → two; blanks dropped. */
const splitManagers = (cell: string): string[] =>
  cell
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');

// ---------------------------------------------------------------- CSV

const LINE_BREAK = /\r\n|\r|\n/g;
const hasBreak = (s: string) => s.includes('\n') || s.includes('\r');
const countBreaks = (s: string) => (hasBreak(s) ? (s.match(LINE_BREAK)?.length ?? 0) : 0);

/** Every line end ends a record; each record is then one line plus the line breaks inside its quoted values. */
const CSV_OPTIONS = { bom: true, relax_column_count: true, record_delimiter: ['\r\n', '\n', '\r'] };

export function readCsv(text: string, b: RowSink): Refusal | undefined {
  let records: string[][];
  try {
    records = parse(text, CSV_OPTIONS);
  } catch (e) {
    if (!(e instanceof CsvError)) throw e;
    return csvSyntaxError(e, text);
  }
  // Lines counted as an editor counts them (csv-parse's own count costs a third of the time when
  // asked for each record, and counts a CRLF inside quotes twice).
  const rows: { fields: string[]; line: number }[] = [];
  let tooMany = false;
  let next = 1;
  for (const record of records) {
    const line = next;
    next += 1 + record.reduce((n, f) => n + countBreaks(f), 0);
    const fields = record.map((f) => f.trim());
    if (fields.every((f) => f === '')) continue; // a blank line (or spaces, or commas only)
    if (rows.length > MAX_ROWS) {
      tooMany = true;
      break;
    }
    rows.push({ fields, line });
  }
  if (tooMany) return { message: TOO_MANY_ROWS, line: null };
  const header = rows[0];
  if (!header) return { message: 'the file is empty', line: null };

  const at = readHeader(header.fields, (problem) => b.fail({ line: header.line }, problem));
  if (!at) return undefined;
  const named = header.fields.length;
  for (let r = 1; r < rows.length; r++) {
    const { fields, line } = rows[r]!;
    const where = { line };
    const extra = fields.findIndex((f, i) => f !== '' && (i >= named || header.fields[i] === ''));
    if (extra >= 0) {
      b.fail(where, `a value in column ${extra + 1}, which the header does not name (${quote(fields[extra]!)})`);
      continue;
    }
    const get = (c: Column) => {
      const i = at.get(c);
      return i === undefined ? undefined : fields[i];
    };
    b.add(where, {
      email: get('email'),
      userId: get('user_id'),
      team: get('team'),
      managers: splitManagers(get('manager') ?? ''),
      repos: splitManagers(get('repos') ?? ''),
      since: get('since')?.trim() || undefined,
    });
  }
  return undefined;
}

/** The column of each known name, or null after saying what is wrong with the header. */
function readHeader(names: string[], fail: (problem: string) => void): Map<Column, number> | null {
  const at = new Map<Column, number>();
  let bad = false;
  names.forEach((raw, i) => {
    const name = raw.toLowerCase();
    if (name === '') return; // an unnamed column (a trailing comma) is fine while its values are empty
    if (!isColumn(name)) {
      let hint = '';
      if (/[;\t]/.test(raw)) hint = '; columns are separated by commas';
      else if (raw.includes('@')) hint = '; the first line must be the header: email, team, manager';
      fail(`unknown column ${quote(raw)} (${EXPECTED}${hint})`);
      bad = true;
    } else if (at.has(name)) {
      fail(`column ${quote(name)} appears twice`);
      bad = true;
    } else at.set(name, i);
  });
  if (bad) return null;
  if (!at.has('email') && !at.has('user_id')) {
    fail(`no "email" or "user_id" column (${EXPECTED})`);
    bad = true;
  }
  if (!at.has('team')) {
    fail(`no "team" column (${EXPECTED})`);
    bad = true;
  }
  return bad ? null : at;
}

/** A file csv-parse cannot read, named by the line where the record it stopped in begins. */
function csvSyntaxError(e: CsvError, text: string): Refusal {
  // Read again up to the error, counting lines (the error's own count is where it noticed).
  let line = 1;
  try {
    parse(text, {
      ...CSV_OPTIONS,
      on_record: (record: string[]) => {
        line += 1 + record.reduce((n, f) => n + countBreaks(f), 0);
        return undefined;
      },
    });
  } catch {
    // the same error, now with `line` at the record it is in
  }
  switch (e.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return { message: 'a quote (") opens a value that is never closed', line };
    case 'INVALID_OPENING_QUOTE':
      return {
        message: 'a quote (") inside a value: put the whole value in quotes and double the quotes inside it',
        line,
      };
    case 'CSV_INVALID_CLOSING_QUOTE':
      return { message: 'text right after a closing quote (")', line };
    default:
      return { message: `this line cannot be read as CSV (${e.message})`, line };
  }
}

// ---------------------------------------------------------------- JSON

const JSON_SHAPE = 'the file must be a JSON array of entries like [{"email": "ann@acme.com", "team": "Engineering"}]';

export function readJson(input: string, b: RowSink): Refusal | undefined {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (text.trim() === '') return { message: 'the file is empty', line: null };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const msg = errorText(e);
    const pos = /at position (\d+)/.exec(msg);
    const lineCol = /\(line (\d+) column \d+\)/.exec(msg);
    const line = lineCol ? Number(lineCol[1]) : pos ? lineAt(lineStarts(text), Number(pos[1])) : null;
    const why = msg
      .replace(/\s*in JSON at position \d+.*$/s, '')
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .trim();
    return { message: `not valid JSON (${why})`, line };
  }
  if (!Array.isArray(data)) return { message: JSON_SHAPE, line: null };
  if (data.length > MAX_ROWS) return { message: TOO_MANY_ROWS, line: null };

  const starts = lineStarts(text);
  const offsets = elementOffsets(text);
  data.forEach((entry: unknown, i) => {
    const where: Where = { line: lineAt(starts, offsets[i] ?? 0), entry: i + 1 };
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      b.fail(where, 'not an object like {"email": "ann@acme.com", "team": "Engineering"}');
      return;
    }
    const obj = entry as Record<string, unknown>;
    const problems: string[] = [];
    for (const k of Object.keys(obj)) if (!isColumn(k)) problems.push(`unknown field ${quote(k)} (${EXPECTED})`);
    const textOf = (k: Column): string | undefined => {
      const v = obj[k];
      if (v === undefined || v === null) return undefined;
      if (typeof v === 'string') return v.trim();
      problems.push(`"${k}" must be text`);
      return undefined;
    };
    const email = textOf('email');
    const userId = textOf('user_id');
    const team = textOf('team');
    const since = textOf('since') || undefined;
    /** A list given as a list of texts, or as one text (split as a CSV cell is). */
    const listOf = (v: unknown, problem: string): string[] => {
      if (typeof v === 'string') return splitManagers(v);
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.flatMap(splitManagers);
      if (v !== undefined && v !== null) problems.push(problem);
      return [];
    };
    const managers = listOf(obj.manager, '"manager" must be a list of emails or one text');
    const repos = listOf(obj.repos, '"repos" must be a list of repositories or one text');
    if (problems.length > 0) {
      for (const p of problems) b.fail(where, p);
      return;
    }
    b.add(where, { email, userId, team, managers, repos, since });
  });
  return undefined;
}

/**
 * Where each element of the top-level array starts, in text JSON.parse has already accepted
 * (so only strings and nesting need following: this finds positions, it does not parse).
 */
function elementOffsets(text: string): number[] {
  const out: number[] = [];
  let depth = 0;
  let inString = false;
  let expecting = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (expecting && depth === 1 && c !== ']' && !/\s/.test(c)) {
      out.push(i);
      expecting = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expecting = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expecting = true;
  }
  return out;
}
