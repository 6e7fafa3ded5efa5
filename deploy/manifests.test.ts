/**
 * What compose.yaml and the Kubernetes manifests promise, read as the tools read them but without a container
 * runtime: compose.yaml gives the dashboard every setting .env.example names (an unset one stays unset), wants a
 * PostgreSQL password and publishes on loopback by default; the replicas run confined, from a pinned image, each with
 * its analytics copy on a volume of its own and sent readers once the copy has caught up.
 * Run by `npm run test:image`, with node's own test runner.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse, parseAllDocuments } from 'yaml';

const root = join(import.meta.dirname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** The variables .env.example names, set (`NAME=`) or commented out (`# NAME=`). */
const documented = [...read('.env.example').matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);

/**
 * What compose.yaml sets for the dashboard's container whatever .env says, and why it may: its port, its
 * listening address and its volume are the image's layout, and DATABASE_URL is compose.yaml's own PostgreSQL.
 */
const PINNED = ['DATABASE_URL', 'DATA_DIR', 'HOST', 'PORT'];

type Env = Record<string, string>;
interface Service {
  environment?: Record<string, string | number | boolean | null> | string[];
  env_file?: string | (string | { path: string; required?: boolean })[];
  ports?: (string | { host_ip?: string; published?: string | number; target: number })[];
}
const compose = parse(read('compose.yaml')) as { services: Record<string, Service> };

/** Compose's interpolation: `${NAME}`, `${NAME:-default}`, `${NAME-default}`, `${NAME:?error}`, `${NAME?error}`. */
function interpolate(text: string, env: Env): string {
  return text.replace(/\$\{(\w+)(?:(:?)([-?])([^}]*))?\}/g, (_all, name: string, colon, op, arg: string) => {
    const value = env[name];
    if (!op) return value ?? '';
    if (value !== undefined && !(colon === ':' && value === '')) return value;
    if (op === '?') throw new Error(`${name}: ${arg}`);
    return arg;
  });
}

/** The dashboard container's environment when .env holds `dotEnv` (compose reads it both to interpolate and as env_file). */
function containerEnv(service: Service, dotEnv: Env): Env {
  const files = [service.env_file ?? []].flat().map((f) => (typeof f === 'string' ? f : f.path));
  const out: Env = files.some((f) => f === '.env' || f === './.env') ? { ...dotEnv } : {};
  const block = service.environment ?? {};
  const entries = Array.isArray(block)
    ? block.map((e) => (e.includes('=') ? [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)] : [e, null]))
    : Object.entries(block).map(([k, v]) => [k, v === null ? null : String(v)]);
  for (const [name, value] of entries as [string, string | null][]) {
    // A name without a value passes compose's own variable through, and leaves it unset when that is.
    if (value !== null) out[name] = interpolate(value, dotEnv);
    else if (dotEnv[name] !== undefined) out[name] = dotEnv[name];
  }
  return out;
}

/** Every string in a parsed document. */
const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];

test('compose.yaml gives the dashboard every variable of .env.example, but the container layout it sets itself', () => {
  const dashboard = compose.services.dashboard!;
  assert.ok(documented.length > 50 && documented.includes('PRIVACY_MIN_GROUP'), 'the variables are read');
  const notPassed = documented.filter((name) => {
    const given = `given-${name}`;
    return containerEnv(dashboard, { POSTGRES_PASSWORD: 'pw', [name]: given })[name] !== given;
  });
  assert.deepEqual(notPassed.sort(), PINNED);
  // One that .env leaves out stays unset in the container: the server reads some empty values otherwise
  // (SYNC_BACKGROUND= refuses to start, PRIVACY_SECRET= replaces SESSION_SECRET).
  const env = containerEnv(dashboard, { POSTGRES_PASSWORD: 'pw' });
  assert.deepEqual(Object.keys(env).sort(), [...PINNED, 'POSTGRES_PASSWORD'].sort());
  assert.equal(env.DATABASE_URL, 'postgres://dashboard:pw@postgres:5432/dashboard');
});

test('every variable compose.yaml reads is in .env.example', () => {
  const named = [...read('compose.yaml').matchAll(/\$\{(\w+)/g)].map((m) => m[1]!);
  assert.ok(named.length > 0);
  for (const name of named) assert.ok(documented.includes(name), `${name} is in .env.example`);
});

test('compose.yaml has no default PostgreSQL password', () => {
  const uses = strings(compose).filter((s) => s.includes('${POSTGRES_PASSWORD'));
  assert.ok(uses.length >= 2, 'the database and the dashboard use it');
  for (const s of uses) {
    assert.throws(() => interpolate(s, {}), /^Error: POSTGRES_PASSWORD: set POSTGRES_PASSWORD in \.env$/, s);
    assert.throws(() => interpolate(s, { POSTGRES_PASSWORD: '' }), /^Error: POSTGRES_PASSWORD: /, s);
  }
});

test("compose.yaml publishes ports on this machine's loopback unless DASHBOARD_BIND says otherwise", () => {
  const published = Object.values(compose.services).flatMap((s) => s.ports ?? []);
  assert.ok(published.length > 0);
  /** The host address a port is published on, `` for every interface. */
  const hostIp = (p: (typeof published)[number], env: Env) => {
    if (typeof p !== 'string') return interpolate(p.host_ip ?? '', env);
    const parts = interpolate(p, env).split(':');
    return parts.length > 2 ? parts.slice(0, -2).join(':') : '';
  };
  for (const p of published) {
    assert.equal(hostIp(p, { POSTGRES_PASSWORD: 'pw' }), '127.0.0.1', JSON.stringify(p));
    assert.equal(hostIp(p, { POSTGRES_PASSWORD: 'pw', DASHBOARD_BIND: '0.0.0.0' }), '0.0.0.0', JSON.stringify(p));
  }
});

interface Container {
  image: string;
  env?: { name: string; value?: string }[];
  volumeMounts?: { name: string; mountPath: string }[];
  readinessProbe?: { httpGet?: { path?: string } };
  startupProbe?: { httpGet?: { path?: string } };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
  };
}
interface PodSpec {
  automountServiceAccountToken?: boolean;
  securityContext?: { runAsNonRoot?: boolean; seccompProfile?: { type?: string } };
  containers: Container[];
  initContainers?: Container[];
  volumes?: { name: string; emptyDir?: { sizeLimit?: string } }[];
}
const manifests = readdirSync(join(root, 'deploy/k8s'))
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((f) => parseAllDocuments(read(`deploy/k8s/${f}`)).map((d) => d.toJS() as { kind: string }));
interface Workload {
  kind: string;
  spec: {
    replicas?: number;
    template: { spec: PodSpec };
    volumeClaimTemplates?: { metadata: { name: string }; spec: { accessModes: string[] } }[];
  };
}
const workloads = manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'StatefulSet') as Workload[];
const pods = workloads.map((m) => m.spec.template.spec);

test('the replicas run confined: no service account token, the runtime seccomp profile, bounded scratch space', () => {
  assert.ok(pods.length > 0, 'a workload is read');
  for (const pod of pods) {
    assert.equal(pod.automountServiceAccountToken, false);
    assert.equal(pod.securityContext?.runAsNonRoot, true);
    assert.equal(pod.securityContext?.seccompProfile?.type, 'RuntimeDefault');
    for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
      assert.equal(c.securityContext?.allowPrivilegeEscalation, false);
      assert.equal(c.securityContext?.readOnlyRootFilesystem, true);
      assert.deepEqual(c.securityContext?.capabilities?.drop, ['ALL']);
    }
    const emptyDirs = (pod.volumes ?? []).filter((v) => v.emptyDir);
    assert.ok(emptyDirs.length > 0);
    for (const v of emptyDirs) assert.match(v.emptyDir?.sizeLimit ?? '', /^\d+[MG]i$/, `${v.name} has a size limit`);
  }
});

test("the replicas' image is this version's, never :latest", () => {
  const { version } = JSON.parse(read('package.json')) as { version: string };
  for (const pod of pods)
    for (const c of pod.containers)
      assert.ok(c.image.endsWith(`:${version}`) || /@sha256:[0-9a-f]{64}$/.test(c.image), `${c.image} is pinned`);
});

test('each replica keeps its analytics copy on a volume of its own, and gets readers once the copy has caught up', () => {
  // The image's DATA_DIR, where a replica on PostgreSQL keeps its copy (src/server/store/config.ts).
  const dataDir = /^\s*DATA_DIR=(\S+)/m.exec(read('Dockerfile'))?.[1];
  assert.equal(dataDir, '/data');
  for (const w of workloads) {
    const [c] = w.spec.template.spec.containers;
    const mount: { name: string } | undefined = c!.volumeMounts?.find((m) => m.mountPath === dataDir);
    assert.ok(mount, 'DATA_DIR is mounted');
    assert.equal(
      c!.env?.find((e) => e.name === 'DATA_DIR' || e.name === 'ANALYTICS_FILE'),
      undefined,
    );
    // Several replicas: the volume is each one's own (a claim per replica), never one claim or folder they share.
    if ((w.spec.replicas ?? 1) > 1) {
      assert.equal(w.kind, 'StatefulSet');
      const claim: { spec: { accessModes: string[] } } | undefined = w.spec.volumeClaimTemplates?.find(
        (t) => t.metadata.name === mount.name,
      );
      assert.ok(claim, `${mount.name} is a claim of each replica's own`);
      assert.deepEqual(claim.spec.accessModes, ['ReadWriteOnce']);
      assert.ok(!(w.spec.template.spec.volumes ?? []).some((v) => v.name === mount.name));
    }
    // Readiness includes the copy; a startup probe on it would restart a replica making its copy from nothing.
    assert.equal(c!.readinessProbe?.httpGet?.path, '/readyz');
    assert.notEqual(c!.startupProbe?.httpGet?.path, '/readyz');
  }
});
