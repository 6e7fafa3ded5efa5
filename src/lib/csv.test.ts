import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

describe('toCsv', () => {
  it('quotes what needs quoting and ends lines with CRLF', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 'say "hi"'],
          [1.5, null],
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n1.5,\r\n');
  });
  it('neutralises cells a spreadsheet would run as formulas', () => {
    expect(toCsv(['v'], [['=HYPERLINK("x")'], ['@SUM(1)'], [-3]])).toBe(
      'v\r\n"\'=HYPERLINK(""x"")"\r\n\'@SUM(1)\r\n-3\r\n',
    );
  });
});
