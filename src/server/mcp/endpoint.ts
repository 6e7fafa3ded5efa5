/**
 * The MCP endpoint at `/mcp` (Streamable HTTP, the official TypeScript SDK), stateless: each POST is one JSON-RPC
 * message answered by a server made for it, so nothing is kept between requests and any replica answers any of
 * them; GET (a stream the server would open) and DELETE (a session's end) are 405. The gate decided who the caller
 * is before this runs (a session's cookie or a personal API token, as for the API); each tool then asks the
 * dashboard's own routes in-process, as that caller (tools.ts), so what it answers is what the pages answer them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import inject from 'light-my-request';
import { actAs, actingAs } from '../auth/access';
import { errorResponse } from '../core/errors';
import { errorText, type Logger } from '../core/log';
import { send } from '../core/response';
import { registerTools, type Asked } from './tools';

export interface McpOptions {
  /** The dashboard's own handler (app.ts), asked in-process for each tool's answer. */
  dispatch: (req: IncomingMessage, res: ServerResponse) => void;
  /** BASE_PATH, put back before the paths the tools ask (the handler takes it off first). */
  basePath: string;
  /** Whether sign-in is on: then only a request the gate let through, with its reader, is answered. */
  signIn: boolean;
  logger: Logger;
}

/** What an in-process request carries of its caller's, so that the gate and the logs see the same reader there. */
const CARRIED = ['host', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'forwarded', 'x-request-id'];

/** What the server tells an assistant about itself when it connects. */
const INSTRUCTIONS =
  'Figures of an organization’s use of a coding agent (credits, active people, tool calls, commits, pull requests, ' +
  'spend), its teams, people, teams’ goals, repositories’ readiness, alerts, chart marks and how its totals reconcile ' +
  'with the service’s own, as the dashboard shows them to the ' +
  'person whose credentials you use: their role, teams and the organization’s privacy settings hold. Call ' +
  'list_figures first to learn what each measure means. Days are UTC days (YYYY-MM-DD); a range without start and ' +
  'end is the last 30 days up to the latest day with data.';

export function createMcpEndpoint(o: McpOptions) {
  /** Asks one of the dashboard's routes as the caller of `req` would. */
  const askerFor =
    (req: IncomingMessage) =>
    async (path: string): Promise<Asked> => {
      const viewer = actingAs(req);
      const headers: Record<string, string> = {};
      for (const h of CARRIED) {
        const v = req.headers[h];
        if (typeof v === 'string') headers[h] = v;
      }
      const r = await inject(
        (inner, res) => {
          if (viewer) actAs(inner, viewer);
          o.dispatch(inner, res);
        },
        { method: 'GET', url: `${o.basePath}${path}`, headers, remoteAddress: req.socket.remoteAddress },
      );
      return {
        status: r.statusCode,
        body: r.body,
        retryAfter: Number(r.headers['retry-after'] ?? 0) || undefined,
      };
    };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST')
      return send(
        res,
        errorResponse(
          405,
          'This MCP server is stateless: send each message with POST (no stream to GET, no session to DELETE).',
          {
            allow: 'POST',
          },
        ),
      );
    // Only the gate says who is asking: a request that reached here without a reader passed it by mistake.
    if (o.signIn && !actingAs(req))
      return send(res, errorResponse(401, 'Sign in first, or send a personal API token as the bearer.'));
    const server = new McpServer(
      { name: 'agent-usage-dashboard', version: '1' },
      { instructions: INSTRUCTIONS, capabilities: { tools: {} } },
    );
    registerTools(server, askerFor(req));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (e) {
      o.logger.error('an MCP request failed', { error: errorText(e) });
      if (!res.headersSent) send(res, errorResponse(500, 'The MCP request could not be answered; try again shortly.'));
    }
  }

  return { handle };
}
