import { describe, expect, it } from 'vitest';
import {
  MAX_BYTES,
  MAX_DEPTH,
  MAX_ERRORS,
  MAX_ID,
  MAX_NAME,
  MAX_ROWS,
  parseMapping,
  repoOwner,
  type Mapping,
  type MappingFormat,
} from './mapping';
import { canonicalEmail } from '../core/text';

function ok(text: string, format: MappingFormat = 'csv'): Mapping {
  const r = parseMapping(text, format);
  if (!r.ok) throw new Error(`expected a mapping, got:\n${r.errors.map((e) => e.message).join('\n')}`);
  return r.mapping;
}

/** The messages of a refused file. */
function refused(text: string, format: MappingFormat = 'csv'): string[] {
  const r = parseMapping(text, format);
  if (r.ok) throw new Error('expected the file to be refused');
  return r.errors.map((e) => e.message);
}

const managersOf = (m: Mapping) => Object.fromEntries([...m.managers].map(([t, s]) => [t, [...s]]));
const csv = (...lines: string[]) => lines.join('\n') + '\n';

describe('CSV: good files', () => {
  it('reads members, teams with every ancestor, and managers', () => {
    const m = ok(
      csv(
        'email,team,manager',
        'ann@acme.com,Engineering/Platform/Infra,bo@acme.com',
        'cy@acme.com,Engineering/Platform/Infra,bo@acme.com',
        'bo@acme.com,Engineering/Platform,dee@acme.com',
        'eve@acme.com,Data,',
      ),
    );
    expect(m.members).toEqual([
      { key: { email: 'ann@acme.com' }, team: 'Engineering/Platform/Infra', line: 2 },
      { key: { email: 'cy@acme.com' }, team: 'Engineering/Platform/Infra', line: 3 },
      { key: { email: 'bo@acme.com' }, team: 'Engineering/Platform', line: 4 },
      { key: { email: 'eve@acme.com' }, team: 'Data', line: 5 },
    ]);
    expect(m.teams).toEqual(['Data', 'Engineering', 'Engineering/Platform', 'Engineering/Platform/Infra']);
    expect(managersOf(m)).toEqual({
      'Engineering/Platform/Infra': ['bo@acme.com'],
      'Engineering/Platform': ['dee@acme.com'],
    });
  });

  it('tolerates a BOM, CRLF, blank lines, spaces, any column order and header case', () => {
    const text =
      '\uFEFF Team , EMAIL ,User_ID\r\n\r\n' +
      ' Engineering / Platform , Ann@Acme.COM ,\r\n' +
      '   \r\n' +
      ',,\r\n' +
      'Data,,usr_42\r\n' +
      '\r\n';
    const m = ok(text);
    expect(m.members).toEqual([
      { key: { email: 'ann@acme.com' }, team: 'Engineering/Platform', line: 3 },
      { key: { userId: 'usr_42' }, team: 'Data', line: 6 },
    ]);
  });

  it('reads quoted fields with commas, quotes and lists of managers', () => {
    const m = ok(
      csv(
        'email,user_id,team,manager',
        'ann@acme.com,usr_1,"Sales/EMEA, North","bo@acme.com; cy@acme.com;"',
        ',usr_2,"Sales/EMEA, North",dee@acme.com',
        'eve@acme.com,,"Design/The ""Lab""",',
      ),
    );
    expect(m.members[0]).toEqual({
      key: { email: 'ann@acme.com', userId: 'usr_1' },
      team: 'Sales/EMEA, North',
      line: 2,
    });
    expect(m.members[2]!.team).toBe('Design/The "Lab"');
    // The managers of a team are every email its rows list.
    expect(managersOf(m)).toEqual({ 'Sales/EMEA, North': ['bo@acme.com', 'cy@acme.com', 'dee@acme.com'] });
  });

  it('takes a user listed twice in the same team once, and allows a managers-only row', () => {
    const m = ok(
      csv(
        'email,user_id,team,manager',
        'ann@acme.com,,Eng/Infra,',
        'ANN@acme.com,,Eng/Infra,',
        ',,Eng,cto@acme.com',
        'ann@acme.com,usr_1,Eng/Infra,',
      ),
    );
    expect(m.members).toEqual([
      { key: { email: 'ann@acme.com' }, team: 'Eng/Infra', line: 2 },
      // adds the user_id of a user already named by email
      { key: { email: 'ann@acme.com', userId: 'usr_1' }, team: 'Eng/Infra', line: 5 },
    ]);
    expect(managersOf(m)).toEqual({ Eng: ['cto@acme.com'] });
  });

  it('compares emails by their own characters, ASCII case aside, as sign-in does (canonicalEmail)', () => {
    // U+212A KELVIN SIGN lowercases to `k` in full Unicode: a look-alike of kim@, another person here.
    const m = ok(
      csv(
        'email,team,manager',
        'Kim@ACME.com,Data,\u00D6mer@acme.com',
        '\u212Aim@acme.com,Sales,',
        '\u00D6mer@acme.com,Data,',
      ),
    );
    expect(m.members.map((x) => x.key.email)).toEqual(['kim@acme.com', '\u212Aim@acme.com', '\u00D6mer@acme.com']);
    // The manager as an admin list and the sign-in keep them: `Ömer@…`, not `ömer@…`.
    expect(managersOf(m)).toEqual({ Data: ['\u00D6mer@acme.com'] });
    expect(m.managers.get('Data')!.has(canonicalEmail('\u00D6mer@acme.com'))).toBe(true);
    const json = ok(
      JSON.stringify([{ email: ' \u212Aim@acme.com ', team: 'Sales', manager: ['KIM@acme.com'] }]),
      'json',
    );
    expect(json.members[0]!.key.email).toBe('\u212Aim@acme.com');
    expect(managersOf(json)).toEqual({ Sales: ['kim@acme.com'] });
  });

  it('ignores unnamed trailing columns while they are empty (spreadsheet exports)', () => {
    expect(ok(csv('email,team,,', 'ann@acme.com,Eng,,')).members).toHaveLength(1);
    expect(refused(csv('email,team,', 'ann@acme.com,Eng,oops'))).toEqual([
      'line 2: a value in column 3, which the header does not name ("oops")',
    ]);
    expect(refused(csv('email,team', 'ann@acme.com,Eng,oops'))).toEqual([
      'line 2: a value in column 3, which the header does not name ("oops")',
    ]);
  });

  it('counts lines as an editor does, also after a value spanning lines', () => {
    expect(refused('email,team\r\n"ann@acme.com\r\n",Eng\r\nbob@acme,Eng\r\n')).toEqual([
      'line 4: "bob@acme" is not a valid email',
    ]);
    expect(refused('email,team\n"ann@acme.com",Eng\n\n\nbob@acme.com,"Eng\nOps"\n')).toEqual([
      'line 5: team "Eng\\nOps" contains a line break or a control character',
    ]);
  });
});

describe('CSV: bad files are refused, naming the line', () => {
  it('an unknown column', () => {
    expect(refused(csv('email,teem', 'ann@acme.com,Eng'))).toEqual([
      'line 1: unknown column "teem" (expected email or user_id, team, manager, repos, since)',
    ]);
  });

  it('a header with the wrong separator, or no header at all', () => {
    expect(refused(csv('email;team', 'ann@acme.com;Eng'))).toEqual([
      'line 1: unknown column "email;team" (expected email or user_id, team, manager, repos, since; columns are separated by commas)',
    ]);
    expect(refused(csv('ann@acme.com,Eng'))[0]).toBe(
      'line 1: unknown column "ann@acme.com" (expected email or user_id, team, manager, repos, since; the first line must be the header: email, team, manager)',
    );
  });

  it('a header without the columns it needs, or with one twice', () => {
    expect(refused(csv('email,manager', 'ann@acme.com,bo@acme.com'))).toEqual([
      'line 1: no "team" column (expected email or user_id, team, manager, repos, since)',
    ]);
    expect(refused(csv('team', 'Eng'))).toEqual([
      'line 1: no "email" or "user_id" column (expected email or user_id, team, manager, repos, since)',
    ]);
    expect(refused(csv('email,team,Email', 'a@acme.com,Eng,b@acme.com'))).toEqual([
      'line 1: column "email" appears twice',
    ]);
  });

  it('a user in two teams, by email or by user_id', () => {
    expect(
      refused(
        csv(
          'email,user_id,team',
          'x@acme.com,,Data',
          'y@acme.com,,Data',
          'alice@acme.com,,Engineering/Platform',
          ...Array.from({ length: 7 }, (_, i) => `u${i}@acme.com,,Data`),
          'Alice@Acme.com,,Sales',
          ',usr_9,Data',
          ',usr_9,Sales',
        ),
      ),
    ).toEqual([
      'line 12: alice@acme.com is already in Engineering/Platform (line 4)',
      'line 14: user_id usr_9 is already in Data (line 13)',
    ]);
  });

  it('an empty team name, or an empty part in one', () => {
    expect(
      refused(
        csv('email,team', 'a@acme.com,Eng', 'b@acme.com,', 'c@acme.com,  ', 'd@acme.com,Eng//Infra', 'e@acme.com,/Eng'),
      ),
    ).toEqual([
      'line 3: empty team name',
      'line 4: empty team name',
      'line 5: team "Eng//Infra" has an empty part',
      'line 6: team "/Eng" has an empty part',
    ]);
  });

  it('a malformed email, of a user or a manager', () => {
    expect(
      refused(
        csv(
          'email,team,manager',
          'ann@acme.com,Eng,',
          'bob@acme,Eng,',
          'cy@acme.com,Eng,bo@',
          'dee@acme.com,Eng,"bo@acme.com, cy@acme.com"',
          'eve at acme.com,Eng,',
        ),
      ),
    ).toEqual([
      'line 3: "bob@acme" is not a valid email',
      'line 4: manager "bo@" is not a valid email',
      'line 5: manager "bo@acme.com, cy@acme.com" is not a valid email (separate several managers with ";")',
      'line 6: "eve at acme.com" is not a valid email',
    ]);
  });

  it('a row that names nobody', () => {
    expect(refused(csv('email,user_id,team,manager', ',,Eng,'))).toEqual(['line 2: no email or user_id']);
  });

  it('a team written two ways, and the reserved name Unassigned', () => {
    expect(
      refused(
        csv('email,team', 'a@acme.com,Engineering/Platform', 'b@acme.com,engineering/Data', 'c@acme.com,unassigned'),
      ),
    ).toEqual([
      'line 3: team "engineering" is written "Engineering" on line 2; write each team the same way',
      'line 4: "unassigned" is kept for the users the mapping does not name; choose another team name',
    ]);
    // Below the top level the name is an ordinary team.
    expect(ok(csv('email,team', 'a@acme.com,Eng/Unassigned')).teams).toEqual(['Eng', 'Eng/Unassigned']);
  });

  it('lists every problem of every row', () => {
    expect(refused(csv('email,team,manager', 'bob@acme,,x'))).toEqual([
      'line 2: "bob@acme" is not a valid email',
      'line 2: empty team name',
      'line 2: manager "x" is not a valid email',
    ]);
  });

  it('quotes that do not close, or stray quotes', () => {
    expect(refused(csv('email,team', 'ann@acme.com,Eng', '', 'bob@acme.com,"Eng', 'cy@acme.com,Data'))).toEqual([
      'line 4: a quote (") opens a value that is never closed',
    ]);
    expect(refused(csv('email,team', 'ann@acme.com,E"ng'))).toEqual([
      'line 2: a quote (") inside a value: put the whole value in quotes and double the quotes inside it',
    ]);
    expect(refused(csv('email,team', 'ann@acme.com,Eng', 'bob@acme.com,"Eng"x'))).toEqual([
      'line 3: text right after a closing quote (")',
    ]);
  });

  it('an empty file, or one with a header only (a truncated export, most likely)', () => {
    expect(refused('')).toEqual(['the file is empty']);
    expect(refused('\uFEFF\r\n\r\n')).toEqual(['the file is empty']);
    expect(refused(csv('email,team'))).toEqual([
      'the file names no users: a mapping needs at least one (to stop showing teams, remove the file instead)',
    ]);
  });

  it(`lists ${MAX_ERRORS} problems at most, and counts the rest`, () => {
    const rows = Array.from({ length: MAX_ERRORS + 1234 }, (_, i) => `u${i}@acme,Eng`);
    const errors = refused(csv('email,team', ...rows));
    expect(errors).toHaveLength(MAX_ERRORS + 1);
    expect(errors[0]).toBe('line 2: "u0@acme" is not a valid email');
    expect(errors.at(-1)).toBe('and 1,234 more problems');
  });

  it('refuses more than 200,000 rows, or more than 20 MB', () => {
    expect(MAX_ROWS).toBe(200_000);
    const rows = 'email,team\n' + Array.from({ length: MAX_ROWS }, (_, i) => `u${i}@a.io,T\n`).join('');
    expect(ok(rows).members).toHaveLength(MAX_ROWS);
    expect(refused(rows + 'x@a.io,T\n')).toEqual(['the file has more than 200,000 rows; the limit is 200,000']);
    const big = 'email,team\n' + 'a'.repeat(MAX_BYTES);
    expect(refused(big)).toEqual(['the file is 20.0 MB; the limit is 20 MB']);
    expect(refused(`[${' '.repeat(21 * 1024 * 1024)}]`, 'json')).toEqual(['the file is 21.0 MB; the limit is 20 MB']);
  });

  it(`a team deeper than ${MAX_DEPTH} levels, a team name over ${MAX_NAME} characters, an email or user_id over ${MAX_ID}`, () => {
    const path = (levels: number, name = 'T') => Array.from({ length: levels }, (_, i) => `${name}${i}`).join('/');
    const long = (n: number) => `${'a'.repeat(n - '@acme.com'.length)}@acme.com`;
    const fine = ok(
      csv(
        'email,user_id,team,manager',
        `${long(MAX_ID)},${'u'.repeat(MAX_ID)},${path(MAX_DEPTH - 1)}/${'n'.repeat(MAX_NAME)},`,
      ),
    );
    expect(fine.teams).toHaveLength(MAX_DEPTH);
    expect(
      refused(
        csv(
          'email,user_id,team,manager',
          `a@acme.com,,${path(MAX_DEPTH + 1)},`,
          `b@acme.com,,Eng/${'n'.repeat(MAX_NAME + 1)},`,
          `${long(MAX_ID + 1)},,Eng,`,
          `,${'u'.repeat(MAX_ID + 1)},Eng,`,
          `c@acme.com,,Eng,${long(MAX_ID + 1)}`,
        ),
      ),
    ).toEqual([
      'line 2: team "T0/T1/T2/T3/T4/T5/T6/T7/T8/T9/T10/T11/T12/T13/T14/T15/T16/T17/T18/T19/T20" has 21 levels; the limit is 20',
      `line 3: team name "${'n'.repeat(77)}…" is 101 characters long; the limit is 100`,
      `line 4: email "${'a'.repeat(77)}…" is 321 characters long; the limit is 320`,
      `line 5: user_id "${'u'.repeat(77)}…" is 321 characters long; the limit is 320`,
      `line 6: manager "${'a'.repeat(77)}…" is 321 characters long; the limit is 320`,
    ]);
    // The review's files: 1,000 levels (5 KB) and 100,000 levels (0.7 MB) are refused by line, at once.
    for (const levels of [1_000, 100_000]) {
      const [message] = refused(csv('email,team', 'ok@acme.com,Eng', `a@acme.com,${path(levels)}`));
      expect(message).toBe(
        `line 3: team "${path(levels).slice(0, 77)}…" has ${levels.toLocaleString('en-US')} levels; the limit is 20`,
      );
    }
    const json = JSON.stringify([{ email: 'a@acme.com', team: path(MAX_DEPTH + 1) }]);
    expect(refused(json, 'json')[0]).toMatch(/^entry 1 \(line 1\): team ".*" has 21 levels; the limit is 20$/);
    expect([MAX_DEPTH, MAX_NAME, MAX_ID]).toEqual([20, 100, 320]);
  });

  it('a control character (NUL, a line break) in a team, an email, a user_id or a manager', () => {
    expect(
      refused(
        csv(
          'email,user_id,team,manager',
          'a@acme.com,,Da\u0000ta,',
          'b@acme.com,,Data,b\u0000o@acme.com',
          'c\u0000y@acme.com,,Data,',
          ',u\u00001,Data,',
          'd@acme.com,,Data,"bo@acme.com;\u0007cy@acme.com"',
        ),
      ),
    ).toEqual([
      'line 2: team "Da\\u0000ta" contains a line break or a control character',
      'line 3: manager "b\\u0000o@acme.com" contains a line break or a control character',
      'line 4: email "c\\u0000y@acme.com" contains a line break or a control character',
      'line 5: user_id "u\\u00001" contains a line break or a control character',
      'line 6: manager "\\u0007cy@acme.com" contains a line break or a control character',
    ]);
    const json = JSON.stringify([
      { email: 'a@acme.com', team: 'Data', manager: ['b\u0000o@acme.com'] },
      { email: 'c\u0000y@acme.com', team: 'Data' },
    ]);
    expect(refused(json, 'json')).toEqual([
      'entry 1 (line 1): manager "b\\u0000o@acme.com" contains a line break or a control character',
      'entry 2 (line 1): email "c\\u0000y@acme.com" contains a line break or a control character',
    ]);
  });

  it('gives each error its line as a number too', () => {
    const r = parseMapping(csv('email,team', 'a@acme.com,Eng', 'bob@acme,Eng'), 'csv');
    expect(r).toEqual({ ok: false, errors: [{ line: 3, message: 'line 3: "bob@acme" is not a valid email' }] });
  });
});

describe('JSON: one array of entries with the CSV columns as keys', () => {
  it('reads members, user ids, and managers as a list or a ";" text', () => {
    const text = `\uFEFF[
  { "email": " Ann@Acme.com ", "team": "Engineering / Platform", "manager": ["bo@acme.com", "cy@acme.com"] },
  { "user_id": "usr_42", "team": "Engineering/Platform", "manager": "dee@acme.com; bo@acme.com" },
  {
    "email": null,
    "user_id": "usr_7",
    "team": "Data"
  }
]`;
    const m = ok(text, 'json');
    expect(m.members).toEqual([
      { key: { email: 'ann@acme.com' }, team: 'Engineering/Platform', line: 2, entry: 1 },
      { key: { userId: 'usr_42' }, team: 'Engineering/Platform', line: 3, entry: 2 },
      { key: { userId: 'usr_7' }, team: 'Data', line: 4, entry: 3 },
    ]);
    expect(m.teams).toEqual(['Data', 'Engineering', 'Engineering/Platform']);
    expect(managersOf(m)).toEqual({ 'Engineering/Platform': ['bo@acme.com', 'cy@acme.com', 'dee@acme.com'] });
  });

  it('names the entry and its line for each bad-file case', () => {
    const text = [
      '[',
      '  {"email": "alice@acme.com", "team": "Engineering/Platform"},',
      '  {"email": "bob@acme", "team": "Eng"},',
      '  {"email": "cy@acme.com", "teem": "Eng"},',
      '  {"email": "dee@acme.com", "team": ""},',
      '  {"email": "eve@acme.com", "team": "Eng//Infra"},',
      '  {"email": "ALICE@acme.com", "team": "Sales"},',
      '  {"email": "fay@acme.com", "team": "Eng", "manager": ["bo@"]},',
      '  {"email": "gus@acme.com", "team": 7},',
      '  {"email": "hal@acme.com", "team": "Eng", "manager": {"a": 1}},',
      '  "ivy@acme.com",',
      '  {"team": "Eng"},',
      '  {"email": "jo@acme.com"}',
      ']',
    ].join('\n');
    expect(refused(text, 'json')).toEqual([
      'entry 2 (line 3): "bob@acme" is not a valid email',
      'entry 3 (line 4): unknown field "teem" (expected email or user_id, team, manager, repos, since)',
      'entry 4 (line 5): empty team name',
      'entry 5 (line 6): team "Eng//Infra" has an empty part',
      'entry 6 (line 7): alice@acme.com is already in Engineering/Platform (entry 1, line 2)',
      'entry 7 (line 8): manager "bo@" is not a valid email',
      'entry 8 (line 9): "team" must be text',
      'entry 9 (line 10): "manager" must be a list of emails or one text',
      'entry 10 (line 11): not an object like {"email": "ann@acme.com", "team": "Engineering"}',
      'entry 11 (line 12): no email or user_id',
      'entry 12 (line 13): empty team name',
    ]);
    const r = parseMapping(text, 'json');
    expect(!r.ok && r.errors[0]).toEqual({
      line: 3,
      entry: 2,
      message: 'entry 2 (line 3): "bob@acme" is not a valid email',
    });
  });

  it('finds entries by their position even with brackets and quotes inside strings', () => {
    const text = '[{"email": "a@acme.com", "team": "A [x], \\"y\\" {z}"},\n\n  {"email": "b@acme", "team": "B"}]';
    expect(refused(text, 'json')).toEqual(['entry 2 (line 3): "b@acme" is not a valid email']);
  });

  it('refuses text that is not JSON, naming the line when it can', () => {
    const errors = refused('[\n  {"email": "a@acme.com", "team": "A"},\n  {"email" "b@acme.com"}\n]', 'json');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^line 3: not valid JSON \(.+\)$/);
    expect(refused('[{"email": "a@acme.com"', 'json')[0]).toMatch(/not valid JSON/);
  });

  it('refuses another shape, an empty file, and an empty list', () => {
    const shape = 'the file must be a JSON array of entries like [{"email": "ann@acme.com", "team": "Engineering"}]';
    expect(refused('{"members": [{"email": "a@acme.com", "team": "A"}]}', 'json')).toEqual([shape]);
    expect(refused('  \n', 'json')).toEqual(['the file is empty']);
    expect(refused('[]', 'json')).toEqual([
      'the file names no users: a mapping needs at least one (to stop showing teams, remove the file instead)',
    ]);
  });

  it('refuses more than 200,000 entries', () => {
    const entries = Array.from({ length: MAX_ROWS + 1 }, () => '{}');
    expect(refused(`[${entries.join(',')}]`, 'json')).toEqual([
      'the file has more than 200,000 rows; the limit is 200,000',
    ]);
  });
});

describe('CSV and JSON agree', () => {
  it('the same mapping written both ways reads the same (but for entry numbers)', () => {
    const a = ok(
      csv(
        'email,user_id,team,manager',
        'ann@acme.com,,Eng/Infra,bo@acme.com;cy@acme.com',
        ',usr_1,Data,',
        'bo@acme.com,usr_2,Eng,',
      ),
    );
    const b = ok(
      JSON.stringify([
        { email: 'ann@acme.com', team: 'Eng/Infra', manager: ['bo@acme.com', 'cy@acme.com'] },
        { user_id: 'usr_1', team: 'Data' },
        { email: 'bo@acme.com', user_id: 'usr_2', team: 'Eng' },
      ]),
      'json',
    );
    const strip = (m: Mapping) => ({ ...m, members: m.members.map(({ key, team }) => ({ key, team })) });
    expect(strip(b)).toEqual(strip(a));
  });
});

describe('the repositories a team owns (the repos column)', () => {
  it('reads URLs in any spelling and host/owner/name patterns, in CSV and JSON alike', () => {
    const a = ok(
      csv(
        'email,team,repos',
        'ann@acme.com,Eng/Infra,https://GitHub.com/Acme/Infra.git; git@github.com:acme/deploy.git',
        'bo@acme.com,Eng/Infra,',
        ',Data,github.com/acme/data-*',
      ),
    );
    expect(a.repos).toEqual([
      { pattern: 'github.com/acme/infra', team: 'Eng/Infra', line: 2 },
      { pattern: 'github.com/acme/deploy', team: 'Eng/Infra', line: 2 },
      { pattern: 'github.com/acme/data-*', team: 'Data', line: 4 },
    ]);
    // A row with a team and repositories but nobody names that team's repositories only.
    expect(a.members.map((m) => m.team)).toEqual(['Eng/Infra', 'Eng/Infra']);
    expect(a.teams).toContain('Data');
    const b = ok(
      JSON.stringify([
        {
          email: 'ann@acme.com',
          team: 'Eng/Infra',
          repos: ['https://GitHub.com/Acme/Infra.git', 'git@github.com:acme/deploy.git'],
        },
        { email: 'bo@acme.com', team: 'Eng/Infra' },
        { team: 'Data', repos: 'github.com/acme/data-*' },
      ]),
      'json',
    );
    expect(b.repos.map(({ pattern, team }) => [pattern, team])).toEqual(
      a.repos.map(({ pattern, team }) => [pattern, team]),
    );
  });

  it('refuses, by line, a repository two teams claim (naming both lines) and one that names no repository', () => {
    expect(
      refused(
        csv(
          'email,team,repos',
          'ann@acme.com,Eng,github.com/acme/api',
          'bo@acme.com,Data,https://github.com/ACME/api.git',
          'cy@acme.com,Data,github.com',
          'dee@acme.com,Data,"*/acme/x; github.com/acme/a b"',
          'eve@acme.com,Eng,github.com/acme/api',
        ),
      ),
    ).toEqual([
      'line 3: repository "github.com/acme/api" is already owned by Eng (line 2)',
      'line 4: repository "github.com" is not a repository: write host/owner/name or its URL (github.com/acme/api)',
      'line 5: repository "*/acme/x" has a * in its host: name the host, a * may stand in the path',
      'line 5: repository "github.com/acme/a b" holds a space, a quote or a control character',
    ]);
    expect(refused(JSON.stringify([{ email: 'ann@acme.com', team: 'Eng', repos: 7 }]), 'json')).toEqual([
      'entry 1 (line 1): "repos" must be a list of repositories or one text',
    ]);
  });

  it('finds a repository’s team in every spelling the reports use, the more specific claim first, else none (Unowned)', () => {
    const m = ok(
      csv(
        'email,team,repos',
        'ann@acme.com,Platform,github.com/acme/*',
        'bo@acme.com,Platform/API,github.com/acme/api',
        'cy@acme.com,Data,github.com/acme/data-*',
      ),
    );
    const owner = repoOwner(m);
    for (const spelling of [
      'https://github.com/acme/api',
      'https://GitHub.com/Acme/API.git',
      'git@github.com:acme/api.git',
      'ssh://git@github.com/acme/api',
      'http://github.com/acme/api/',
    ])
      expect(owner(spelling), spelling).toBe('Platform/API');
    expect(owner('https://github.com/acme/data-lake')).toBe('Data');
    expect(owner('https://github.com/acme/web')).toBe('Platform');
    // A pattern stands for one path segment: a repository deeper down, or elsewhere, is nobody's.
    expect(owner('https://gitlab.com/acme/web')).toBeNull();
    expect(owner('https://github.com/acme/group/web')).toBeNull();
    expect(repoOwner(null)('https://github.com/acme/api')).toBeNull();
  });
});

describe('since: the day a user was given the agent', () => {
  it('is read from CSV and JSON as a UTC day, and kept when the user is listed again', () => {
    const m = ok(
      csv(
        'email,user_id,team,since',
        'ann@acme.com,,Eng,2026-03-02',
        'bo@acme.com,,Eng,',
        'bo@acme.com,,Eng,2026-04-01',
      ),
    );
    expect(m.members.map((x) => [x.key.email, x.since])).toEqual([
      ['ann@acme.com', '2026-03-02'],
      ['bo@acme.com', '2026-04-01'],
    ]);
    const j = ok(
      '[{ "email": "ann@acme.com", "team": "Eng", "since": " 2026-03-02 " }, { "user_id": "u", "team": "Eng" }]',
      'json',
    );
    expect(j.members.map((x) => x.since)).toEqual(['2026-03-02', undefined]);
  });

  it('refuses the file naming the line of a bad day, of a row naming nobody, or of a second day', () => {
    expect(
      refused(
        csv(
          'email,team,manager,since',
          'ann@acme.com,Eng,,2026-02-30',
          'bo@acme.com,Eng,,02/03/2026',
          ',Eng,cy@acme.com,2026-03-02',
          'dee@acme.com,Eng,,2026-03-02',
          'dee@acme.com,Eng,,2026-03-09',
        ),
      ),
    ).toEqual([
      'line 2: since "2026-02-30" is not a day like 2026-03-02',
      'line 3: since "02/03/2026" is not a day like 2026-03-02',
      'line 4: since is a user’s start day: give the row an email or user_id',
      'line 6: since 2026-03-09 differs from line 5’s 2026-03-02',
    ]);
    expect(refused('[{ "email": "ann@acme.com", "team": "Eng", "since": 20260302 }]', 'json')).toEqual([
      'entry 1 (line 1): "since" must be text',
    ]);
  });
});
