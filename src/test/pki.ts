/**
 * A private certificate authority for the tests, as a corporate network has (a TLS-inspecting proxy's, an
 * internal identity provider's): made with the `openssl` command in a temporary folder, one server
 * certificate for the names asked, valid for a day.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';

export interface TestPki {
  /** The authority's certificate (PEM), and where it is on disk (for NODE_EXTRA_CA_CERTS). */
  ca: string;
  caFile: string;
  /** The server's key and certificate (PEM), for `names`. */
  key: string;
  cert: string;
  remove(): void;
}

export function makePki(names: readonly string[]): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'dashboard-pki-'));
  const at = (f: string) => join(dir, f);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const run = (args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  run([
    'req',
    '-x509',
    ...ec,
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
    '-days',
    '1',
    '-subj',
    '/CN=Dashboard test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  ]);
  run(['req', ...ec, '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', `/CN=${names[0]}`]);
  writeFileSync(
    at('ext.cnf'),
    `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}\nextendedKeyUsage=serverAuth\n`,
  );
  run([
    'x509',
    '-req',
    '-in',
    at('server.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-out',
    at('server.pem'),
    '-days',
    '1',
    '-extfile',
    at('ext.cnf'),
  ]);
  return {
    ca: readFileSync(at('ca.pem'), 'utf8'),
    caFile: at('ca.pem'),
    key: readFileSync(at('server.key'), 'utf8'),
    cert: readFileSync(at('server.pem'), 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** This process trusts `ca` beside the usual authorities (what NODE_EXTRA_CA_CERTS does at start); undone by the return. */
export function trustCa(ca: string): () => void {
  const before = getCACertificates('default');
  setDefaultCACertificates([...before, ca]);
  return () => setDefaultCACertificates(before);
}
