/**
 * The mapping's endpoints (`/api/teams/mapping`): its text in force, and its upload and removal where it may be edited
 * here (no TEAMS_FILE), each answered with the tree the teams endpoint gives.
 */
import type { IncomingMessage } from 'node:http';
import { mappingTextSchema, mappingUploadSchema, teamsAnswerSchema } from '../../api/teams';
import { ACCESS } from '../auth/access';
import { errorResponse } from '../core/errors';
import { json, type HttpResponse } from '../core/response';
import { readJson } from '../core/text';
import { requireEditor, route, type Route } from '../http/router';
import { MAX_BYTES, type MappingFormat } from './mapping';
import type { EditableMappingSource, MappingSource, MappingState } from './source';

export interface MappingRoutesOptions {
  source: MappingSource;
  /** Set when the mapping may be edited here (no TEAMS_FILE). */
  editable?: EditableMappingSource;
  /** Sign-in decides who edits (admins); without it, only the dashboard's own machine may. */
  signIn?: boolean;
  /** What readers' pages read for a mapping beside its members, made before a save or a removal is answered. */
  changed?: () => Promise<void>;
  /** The tree answered for a mapping in force (the teams endpoint's). */
  answer: (state?: MappingState) => Promise<unknown>;
}

export function createMappingRoutes(opts: MappingRoutesOptions): Route[] {
  const { source, editable } = opts;
  /** Who may change the mapping here (without sign-in, this machine only; with it, admins by the route's rule). */
  const editor = (req: IncomingMessage) =>
    requireEditor(req, opts.signIn === true, 'the team mapping', 'elsewhere, set TEAMS_FILE');

  /** `PUT /api/teams/mapping` with `{format, text, name?}` as JSON. */
  async function saveMapping(req: IncomingMessage): Promise<HttpResponse> {
    editor(req);
    if (!editable) {
      return errorResponse(
        409,
        'The team mapping comes from the file named by TEAMS_FILE: change that file (it is read again when it changes).',
      );
    }
    const body = await readJson(req, MAX_BYTES + 64 * 1024, {
      unsupported: 'Send the mapping as JSON: {"format": "csv" or "json", "text": "…"}.',
      tooLarge: `The mapping is larger than ${MAX_BYTES / 1024 / 1024} MB.`,
      invalid: 'The body is not valid JSON: send {"format": "csv" or "json", "text": "…"}.',
    });
    const b = (body ?? {}) as { format?: unknown; text?: unknown; name?: unknown };
    if (b.format !== 'csv' && b.format !== 'json') return errorResponse(400, 'format must be "csv" or "json".');
    if (typeof b.text !== 'string') return errorResponse(400, 'text must be the mapping file’s content, as a string.');
    // A control character (a NUL) is not text PostgreSQL stores.
    // eslint-disable-next-line no-control-regex
    const named = typeof b.name === 'string' ? b.name.replace(/[\u0000-\u001f\u007f]/g, '').trim() : '';
    const name = named ? named.slice(0, 200) : `mapping.${b.format}`;
    const result = await editable.save(b.text, b.format as MappingFormat, name);
    if (!result.ok) {
      const r = errorResponse(
        400,
        `The mapping was refused (${result.errors.length} problem${result.errors.length === 1 ? '' : 's'}); the mapping in force is unchanged. ${result.errors[0]!.message}`,
      );
      const parsed = JSON.parse(r.body) as Record<string, unknown>;
      return {
        ...r,
        body: JSON.stringify({ ...parsed, errors: result.errors.map((e) => ({ line: e.line, message: e.message })) }),
      };
    }
    const saved = await opts.answer(result.state);
    await opts.changed?.();
    return json(200, saved);
  }

  const mappingRoute = (method: 'GET' | 'PUT' | 'DELETE', handle: (req: IncomingMessage) => Promise<HttpResponse>) =>
    route({
      method,
      path: '/api/teams/mapping',
      access: ACCESS.mapping,
      what: 'the team mapping',
      response: method === 'GET' ? mappingTextSchema : teamsAnswerSchema,
      ...(method === 'PUT' && { body: mappingUploadSchema }),
      handle: ({ req }) => handle(req),
    });
  return [
    mappingRoute('GET', async () => {
      const s = source.current();
      return json(200, { source: s.source, format: s.format, text: s.text ?? '' });
    }),
    mappingRoute('PUT', saveMapping),
    mappingRoute('DELETE', async (req) => {
      editor(req);
      if (!editable)
        return errorResponse(409, 'The team mapping comes from TEAMS_FILE; there is no uploaded mapping to remove.');
      await editable.remove();
      const body = await opts.answer();
      await opts.changed?.();
      return json(200, body);
    }),
  ];
}
