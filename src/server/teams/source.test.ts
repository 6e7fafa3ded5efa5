import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../core/log';
import { fileMappingSource, fixedMappingSource } from './source';

const dir = mkdtempSync(join(tmpdir(), 'teams-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const until = async (check: () => boolean, ms = 5000) => {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('the team mapping in force', () => {
  it('reads TEAMS_FILE, follows its changes, and keeps the mapping in force when a change is refused', async () => {
    const path = join(dir, 'teams.csv');
    writeFileSync(path, 'email,team\nann@acme.com,Engineering/Platform\nbo@acme.com,Data\n');
    const lines: string[] = [];
    const source = fileMappingSource(
      path,
      createLogger((l) => lines.push(l)),
      20,
    );
    try {
      expect(source.current().mapping!.members.map((m) => m.team)).toEqual(['Engineering/Platform', 'Data']);
      expect(source.current()).toMatchObject({ source: 'file', name: 'teams.csv', refused: null });

      writeFileSync(path, 'email,team\nann@acme.com,Engineering/Platform\nann@acme.com,Data\nbo@acme\n');
      await until(() => source.current().refused !== null);
      const state = source.current();
      expect(state.mapping!.members).toHaveLength(2); // what was in force stays
      expect(state.refused!.errors.map((e) => e.message)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^line 3: ann@acme\.com is already in Engineering\/Platform \(line 2\)/),
        ]),
      );
      expect(lines.some((l) => l.includes('team mapping refused'))).toBe(true);

      writeFileSync(path, 'email,team\nann@acme.com,Engineering/Infra\ncy@acme.com,Data\nbo@acme.com,Data\n');
      await until(() => source.current().refused === null);
      expect(source.current().mapping!.members.map((m) => m.key.email)).toEqual([
        'ann@acme.com',
        'cy@acme.com',
        'bo@acme.com',
      ]);
    } finally {
      source.stop();
    }
  });

  it('refuses to start on a bad file, naming the line', () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, '[{"email": "ann@acme.com", "teem": "Data"}]');
    expect(() =>
      fileMappingSource(
        path,
        createLogger(() => {}),
      ),
    ).toThrow(/TEAMS_FILE bad\.json was refused: entry 1 \(line 1\): unknown field "teem"/);
  });

  it('parses the demo mapping through the same parser', () => {
    const s = fixedMappingSource('email,team,manager\nann@acme.com,Eng/Platform,bo@acme.com\n', 'csv', 'demo mapping');
    expect(s.current().mapping!.managers.get('Eng/Platform')).toEqual(new Set(['bo@acme.com']));
    expect(s.current().source).toBe('demo');
  });
});
