import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCoreConfig } from './config';

describe('the holidays setting', () => {
  const dir = mkdtempSync(join(tmpdir(), 'holidays-'));
  const file = join(dir, 'holidays.txt');
  writeFileSync(file, '# Acme\n2027-01-01  # New Year\n2026-12-25\n');

  it('is none by default', () => {
    expect(readCoreConfig({}).holidays).toEqual([]);
  });

  it('takes HOLIDAYS and HOLIDAYS_FILE together, sorted and once each', () => {
    expect(readCoreConfig({ HOLIDAYS: '2026-12-25,2026-12-26' }).holidays).toEqual(['2026-12-25', '2026-12-26']);
    expect(readCoreConfig({ HOLIDAYS: '2026-12-26,2026-12-25', HOLIDAYS_FILE: file }).holidays).toEqual([
      '2026-12-25',
      '2026-12-26',
      '2027-01-01',
    ]);
  });

  it('stops the start on a bad entry, naming it and where it is', () => {
    expect(() => readCoreConfig({ HOLIDAYS: '2026-12-25,12/26/2026' })).toThrow(
      'HOLIDAYS: "12/26/2026" is not a day (YYYY-MM-DD, e.g. 2026-12-25)',
    );
    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, '2026-12-25\n2026-12-32\n');
    expect(() => readCoreConfig({ HOLIDAYS_FILE: bad })).toThrow(
      `HOLIDAYS_FILE (${bad}) line 2: "2026-12-32" is not a day (YYYY-MM-DD, e.g. 2026-12-25)`,
    );
    expect(() => readCoreConfig({ HOLIDAYS_FILE: join(dir, 'missing.txt') })).toThrow(
      `HOLIDAYS_FILE (${join(dir, 'missing.txt')}) cannot be read: ENOENT`,
    );
  });
});
