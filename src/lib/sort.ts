/** A table's sort, as the URL writes it (`column:dir`): the SPA and the server read it alike. */
import * as z from 'zod/mini';

export type SortDir = 'asc' | 'desc';
export interface SortState {
  column: string;
  dir: SortDir;
}

export const sortSchema = z.catch(
  z.nullable(
    z.pipe(
      z.string().check(z.regex(/^[\w.-]+:(asc|desc)$/)),
      z.transform((s): SortState => {
        const i = s.lastIndexOf(':');
        return { column: s.slice(0, i), dir: s.slice(i + 1) as SortDir };
      }),
    ),
  ),
  null,
);

/** A table's sort as the URL writes it (`column:dir`), or null when it writes none or nonsense. */
export const parseSort = (raw: string | null): SortState | null => sortSchema.parse(raw);
