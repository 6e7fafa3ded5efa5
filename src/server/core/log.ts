/**
 * Structured logs, one JSON object a line. Fields named like credentials are
 * redacted whatever a caller passes, so a key can never be logged by mistake.
 */
const SECRET = /authorization|api[-_]?key|cookie|token|secret/i;

type LogFields = Record<string, unknown>;

function redact(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET.test(k) ? '[redacted]' : v;
  return out;
}

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

export function createLogger(write: (line: string) => void = (l) => process.stdout.write(l + '\n')): Logger {
  const emit = (level: string, msg: string, fields: LogFields = {}) =>
    write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...redact(fields) }));
  return { info: (m, f) => emit('info', m, f), error: (m, f) => emit('error', m, f) };
}

export const silentLogger: Logger = { info() {}, error() {} };
