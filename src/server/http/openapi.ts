/**
 * The dashboard's own JSON API as an OpenAPI 3.1 document, made from the route table: each route's method and path,
 * its query parameters (its parser's), its body's and its success's schemas (src/api's zod schemas, as JSON Schema
 * 2020-12, which OpenAPI 3.1 takes as they are), the error body every refusal shares, and who may call it.
 */
import * as z from 'zod/mini';
import { errorBodySchema } from '../../api/schemas';
import { tokenRefusal } from '../auth/tokens';
import type { Route } from './router';

/** Schemas made for the document; a recursive one's definitions go to its components, each under a name of its own. */
function schemaMaker(components: Record<string, unknown>) {
  let made = 0;
  return (s: z.core.$ZodType): Record<string, unknown> => {
    const schema = z.toJSONSchema(s, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
    // A body's or an answer's schema sits inside the document, which says its dialect once.
    delete schema.$schema;
    const defs = schema.$defs as Record<string, unknown> | undefined;
    if (!defs) return schema;
    delete schema.$defs;
    const n = made++;
    const rename = (text: string) =>
      text.replace(/"#\/\$defs\/([^"]+)"/g, (_, name: string) => `"#/components/schemas/${name}_${n}"`);
    for (const [name, def] of Object.entries(defs))
      components[`${name}_${n}`] = JSON.parse(rename(JSON.stringify(def)));
    return JSON.parse(rename(JSON.stringify(schema))) as Record<string, unknown>;
  };
}

/** `/api/users/:id` → `/api/users/{id}`, and its path parameters. */
function pathOf(r: Route): { path: string; names: string[] } {
  const label = r.label ?? (typeof r.path === 'string' ? r.path : String(r.path));
  const names: string[] = [];
  const path = label.replace(/:([A-Za-z]\w*)/g, (_, name: string) => {
    names.push(name);
    return `{${name}}`;
  });
  return { path, names };
}

const ERROR = { $ref: '#/components/schemas/Error' };
const refusal = (description: string) => ({
  description,
  content: { 'application/json': { schema: ERROR } },
});

export interface OpenApiOptions {
  version: string;
  /** BASE_PATH ('' at the root). */
  basePath: string;
  signIn: boolean;
}

export function openApiDocument(routes: readonly Route[], o: OpenApiOptions) {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, unknown> = {};
  const jsonSchema = schemaMaker(schemas);
  for (const r of routes) {
    const { path, names } = pathOf(r);
    const success = r.response;
    const ok =
      success === undefined
        ? { status: 200, content: undefined }
        : 'file' in success
          ? {
              status: 200,
              content: Object.fromEntries([success.file].flat().map((type) => [type, { schema: { type: 'string' } }])),
            }
          : 'status' in success && typeof success.status === 'number'
            ? {
                status: success.status,
                content: success.schema && { 'application/json': { schema: jsonSchema(success.schema) } },
              }
            : { status: 200, content: { 'application/json': { schema: jsonSchema(success as z.core.$ZodType) } } };
    // What a personal token may not do (make tokens, change anything) takes a signed-in session only.
    const sessionOnly = o.signIn ? tokenRefusal(r.method, path) : null;
    const operation = {
      operationId: `${r.method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c?: string) => (c ?? '').toUpperCase())}`,
      summary: r.what.charAt(0).toUpperCase() + r.what.slice(1),
      ...(sessionOnly !== null && { description: sessionOnly, security: [{ session: [] }] }),
      parameters: [
        ...names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
        ...r.parameters,
      ],
      ...(r.body &&
        r.body !== 'none' && {
          requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(r.body) } } },
        }),
      responses: {
        [String(ok.status)]: { description: 'The answer.', ...(ok.content && { content: ok.content }) },
        '400': refusal('A parameter or the body is not valid: `detail` says which and what is accepted.'),
        ...(o.signIn && {
          '401': refusal('No valid session or API token.'),
          '403': refusal('The reader may not see this (their role, their teams, privacy mode).'),
        }),
        default: refusal('Another error (the same body, with the request id).'),
      },
    };
    (paths[path] ??= {})[r.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Agent usage dashboard API',
      version: o.version,
      description:
        'The dashboard’s own figures as JSON. Every answer keeps to the reader’s role, teams and the organization’s privacy settings, as the pages do.',
    },
    servers: [{ url: o.basePath || '/' }],
    ...(o.signIn && { security: [{ bearer: [] }, { session: [] }] }),
    components: {
      schemas: { Error: jsonSchema(errorBodySchema), ...schemas },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A personal API token (Settings → API tokens).' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'session',
          description: 'A signed-in browser (`__Host-session` over https).',
        },
      },
    },
    paths,
  };
}
