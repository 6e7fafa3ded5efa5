import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DemoService } from './demo/service';
import { send } from './app';

/** Serves a demo service over node:http. */
export function demoListener(demo: DemoService) {
  return (req: IncomingMessage, res: ServerResponse) =>
    send(
      res,
      demo.handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers }),
      req.method === 'HEAD',
    );
}
