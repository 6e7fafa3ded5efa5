import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

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
  it('quotes a cell holding a semicolon or a tab, which a spreadsheet splitting on them would read as two', () => {
    expect(csvCell('a;=1+1')).toBe('"a;=1+1"');
    expect(csvCell('a\tb')).toBe('"a\tb"');
    expect(csvCell('a b')).toBe('a b');
  });
  it('neutralises every formula-leading character of OWASP’s list, full-width ones too', () => {
    for (const lead of ['=', '+', '-', '@', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'])
      expect(csvCell(`${lead}1+1`), lead).toBe(`'${lead}1+1`);
    expect(csvCell('\t=1+1')).toBe('"\'\t=1+1"');
    expect(csvCell('\r=1+1')).toBe('"\'\r=1+1"');
    expect(csvCell('a=1')).toBe('a=1');
    // A number is a number: written as it is, its sign included.
    expect(csvCell(-3)).toBe('-3');
  });
});
