import { describe, expect, it } from 'vitest';
import { csvRecords, readResultsFile } from './results-file.ts';

/* How a laboratory's CSV is read: as LIMS exports write it, quotes, separators and all. */

describe('csvRecords', () => {
  it('reads quoted fields, doubled quotes and line breaks inside quotes, by the line they start on', () => {
    const text =
      '\uFEFFRun,Comment,Value\r\n"ST-0001 run 1","said ""ok""\nat noon",0.5\r\n\r\nST-0001 run 2,,1e-3\n';
    expect(csvRecords(text)).toEqual([
      { line: 1, fields: ['Run', 'Comment', 'Value'] },
      { line: 2, fields: ['ST-0001 run 1', 'said "ok"\nat noon', '0.5'] },
      { line: 5, fields: ['ST-0001 run 2', '', '1e-3'] },
    ]);
  });

  it('takes the separator the header row uses: semicolon or tab', () => {
    expect(csvRecords('Run;Value\nST-0001 run 1;0,5').map((r) => r.fields)).toEqual([
      ['Run', 'Value'],
      ['ST-0001 run 1', '0,5'],
    ]);
    expect(csvRecords('Run\tValue\nx\t1').map((r) => r.fields)).toEqual([
      ['Run', 'Value'],
      ['x', '1'],
    ]);
  });
});

describe('readResultsFile', () => {
  it('refuses an empty file and one without a header row, in the catalogue shape', async () => {
    await expect(readResultsFile(Buffer.alloc(0))).rejects.toMatchObject({
      errName: 'DataValidationError',
      errors: [{ property: 'file', constraints: { file: 'The file is empty' } }],
    });
    await expect(readResultsFile(Buffer.from('\n\n'))).rejects.toMatchObject({
      errors: [{ property: 'file', constraints: { file: 'The file has no header row' } }],
    });
  });

  it('refuses more than 5,000 results', async () => {
    const text = ['Run', ...Array.from({ length: 5001 }, (_, i) => `r${i}`)].join('\n');
    await expect(readResultsFile(Buffer.from(text))).rejects.toMatchObject({
      errors: [
        { property: 'file', constraints: { file: expect.stringContaining('more than 5,000') } },
      ],
    });
  });
});
