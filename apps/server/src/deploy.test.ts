// The deploy recipe (deploy/, issue 32) as far as a machine without a Docker engine can check it:
// the Dockerfile's lint and what it must do, the compose file's services, and that every metric the
// Grafana dashboard and alert rules name is one the store's /metrics serves. What the image does when
// built is run by `npm run test:image` (scripts/image-check.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validate } from 'dockerfile-utils';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverNodeFlags } from '../../../scripts/server-process.ts';
import { buildTestApp, type TestApp } from './test/helper.ts';

const deploy = path.join(import.meta.dirname, '../../../deploy');
const read = (file: string) => readFileSync(path.join(deploy, file), 'utf8');

/** The Dockerfile's instructions (continuations joined, comments dropped), each stage's after its FROM. */
function stagesOf(text: string): Array<Array<{ keyword: string; args: string }>> {
  const stages: Array<Array<{ keyword: string; args: string }>> = [];
  for (const line of text.replace(/\\\n/g, ' ').split('\n')) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const [keyword, ...rest] = trimmed.split(/\s+/);
    if (keyword!.toUpperCase() === 'FROM') stages.push([]);
    stages.at(-1)?.push({ keyword: keyword!.toUpperCase(), args: rest.join(' ') });
  }
  return stages;
}

describe('deploy/Dockerfile', () => {
  const text = read('Dockerfile');
  const [build, runtime] = stagesOf(text);
  const args = (stage: typeof build, keyword: string) => stage!.filter((one) => one.keyword === keyword).map((one) => one.args);

  it('has no problem dockerfile-utils finds', () => {
    expect(validate(text)).toEqual([]);
  });

  it('installs from the lockfile, builds the web app and prunes the dev dependencies in a build stage of node:24', () => {
    expect(text.match(/^FROM /gm)).toHaveLength(2);
    expect(args(build, 'FROM')[0]).toMatch(/^node:24\S* AS build$/);
    expect(args(build, 'COPY').some((copy) => copy.includes('package-lock.json'))).toBe(true);
    const runs = args(build, 'RUN').join('\n');
    expect(runs).toMatch(/\bnpm ci\b/);
    expect(runs).toMatch(/\bnpm run build\b/);
    expect(runs).toMatch(/\bnpm prune --omit=dev\b/);
    expect(runs.indexOf('npm ci')).toBeLessThan(runs.indexOf('npm run build'));
    expect(runs.indexOf('npm run build')).toBeLessThan(runs.indexOf('npm prune'));
  });

  it('runs the server in production as the node user under tini, with the Node flags of a server on PostgreSQL', () => {
    expect(args(runtime, 'FROM')[0]).toMatch(/^node:24\S*/);
    // What it takes from the build stage: the pruned modules, the built web app, the server and the contract.
    const copied = args(runtime, 'COPY').join('\n');
    for (const part of ['/app/node_modules', '/app/apps/web/dist', '/app/apps/server', '/app/packages/contract']) expect(copied).toContain(`--from=build ${part}`);
    expect(args(runtime, 'ENV').join(' ')).toMatch(/\bNODE_ENV=production\b/);
    expect(args(runtime, 'USER')).toEqual(['node']);
    expect(args(runtime, 'RUN').join('\n')).toMatch(/apt-get install .*\btini\b/);
    expect(JSON.parse(args(runtime, 'ENTRYPOINT')[0]!)).toEqual(['/usr/bin/tini', '--']);
    expect(JSON.parse(args(runtime, 'CMD')[0]!)).toEqual(['node', ...serverNodeFlags({ DATABASE_URL: 'postgres://compose' }), 'apps/server/src/main.ts']);
  });

  it('checks its health on /api/health/ready with node alone', () => {
    const [healthcheck] = args(runtime, 'HEALTHCHECK');
    expect(healthcheck).toMatch(/CMD \["node", "-e", ".*fetch\(.*\/api\/health\/ready/);
    expect(healthcheck).not.toMatch(/curl|wget/);
  });

  it('is sent no node_modules, builds or secrets (.dockerignore)', () => {
    const ignored = readFileSync(path.join(deploy, '../.dockerignore'), 'utf8').split('\n');
    for (const pattern of ['**/node_modules', '**/dist', '.git', '**/*.env']) expect(ignored).toContain(pattern);
  });
});

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }> | string[];
  environment?: Record<string, string>;
  env_file?: string | string[];
  volumes?: string[];
  ports?: string[];
}

describe('deploy/compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> };
  const { services } = compose;

  it('runs PostgreSQL and Redis, each with a health check', () => {
    expect(services.postgres!.image).toMatch(/^postgres:/);
    expect(services.postgres!.healthcheck!.test.join(' ')).toContain('pg_isready');
    expect(services.redis!.image).toMatch(/^redis:/);
    expect(services.redis!.healthcheck!.test.join(' ')).toContain('redis-cli ping');
  });

  it('runs two store instances of the image, on PostgreSQL and Redis once they are healthy, sharing one secrets file', () => {
    const stores = Object.entries(services).filter(([, service]) => service.build?.dockerfile === 'deploy/Dockerfile');
    expect(stores.map(([name]) => name)).toEqual(['store-1', 'store-2']);
    for (const [, store] of stores) {
      expect(store.build!.context).toBe('..');
      expect(store.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
      expect(store.env_file).toBe('keystore.env');
      expect(store.environment!.DATABASE_URL).toMatch(/^postgres:\/\/keystore:\$\{POSTGRES_PASSWORD.*\}@postgres:5432\/keystore$/);
      expect(store.environment!.REDIS_URL).toBe('redis://redis:6379');
      expect(store.environment!.TRUST_PROXY).toBe('1');
      expect(store.environment!.METRICS_PORT).toBe('9464');
      // Never published: only the proxy and Prometheus reach an instance.
      expect(store.ports).toBeUndefined();
    }
  });

  it('puts Caddy in front of both instances, with their readiness as its health check and a request id of its own', () => {
    expect(services.proxy!.image).toMatch(/^caddy:/);
    expect(services.proxy!.volumes).toContain('./Caddyfile:/etc/caddy/Caddyfile:ro');
    expect(services.proxy!.depends_on).toEqual({ 'store-1': { condition: 'service_healthy' }, 'store-2': { condition: 'service_healthy' } });
    const caddyfile = read('Caddyfile');
    expect(caddyfile).toMatch(/reverse_proxy store-1:3000 store-2:3000/);
    expect(caddyfile).toMatch(/health_uri \/api\/health\/ready/);
    expect(caddyfile).toMatch(/request_header X-Request-Id \{http\.request\.uuid\}/);
  });

  it('has Prometheus scrape both metrics ports, and Grafana provisioned with its data source, dashboard and alert rules', () => {
    expect(services.prometheus!.volumes).toContain('./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro');
    const prometheus = parse(read('prometheus/prometheus.yml')) as { scrape_configs: Array<{ static_configs: Array<{ targets: string[] }> }> };
    expect(prometheus.scrape_configs.flatMap((job) => job.static_configs.flatMap((config) => config.targets))).toEqual(['store-1:9464', 'store-2:9464']);
    expect(services.grafana!.volumes).toEqual(expect.arrayContaining(['./grafana/provisioning:/etc/grafana/provisioning:ro', './grafana/dashboards:/var/lib/grafana/dashboards:ro']));
    const datasource = parse(read('grafana/provisioning/datasources/prometheus.yaml')) as { datasources: Array<{ uid: string; url: string }> };
    expect(datasource.datasources).toEqual([expect.objectContaining({ uid: 'keystore-prometheus', url: 'http://prometheus:9090' })]);
    const dashboards = parse(read('grafana/provisioning/dashboards/keystore.yaml')) as { providers: Array<{ options: { path: string } }> };
    expect(dashboards.providers[0]!.options.path).toBe('/var/lib/grafana/dashboards');
    expect(alertRules().map((rule) => rule.title)).toHaveLength(6);
  });
});

interface AlertRule {
  title: string;
  data: Array<{ datasourceUid: string; model: { expr?: string } }>;
}

function alertRules(): AlertRule[] {
  const file = parse(read('grafana/provisioning/alerting/keystore-alerts.yaml')) as { groups: Array<{ rules: AlertRule[] }> };
  return file.groups.flatMap((group) => group.rules);
}

interface Panel {
  title: string;
  datasource?: { uid: string };
  targets?: Array<{ expr: string }>;
}

function dashboardPanels(): Panel[] {
  return (JSON.parse(read('grafana/dashboards/keystore.json')) as { panels: Panel[] }).panels;
}

/** PromQL's words that are not metric names: aggregations, functions are told by their `(`. */
const PROMQL_WORDS = new Set(['and', 'or', 'unless', 'offset', 'bool', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'inf', 'nan']);

/** The metric names a PromQL expression reads: strings, label matchers, ranges and grouping clauses left out. */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = [...bare.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(\s*\()?/g)]
    .filter(([, word, call]) => !call && !PROMQL_WORDS.has(word!.toLowerCase()) && !/^\d/.test(word!))
    .map(([, word]) => word!);
  return [...new Set(names)];
}

describe('the metrics the dashboard and the alert rules name', () => {
  let app: TestApp;
  let scrape: string;
  beforeAll(async () => {
    app = await buildTestApp({ env: { METRICS_TOKEN: 'deploy-test-metrics-token' } });
    const answer = await app.app.inject({ url: '/metrics', headers: { authorization: 'Bearer deploy-test-metrics-token' } });
    expect(answer.statusCode).toBe(200);
    scrape = answer.body;
  });
  afterAll(() => app?.close());

  /** Names /metrics serves: each sample's name, and each family's with its type (a histogram's `_bucket`, `_sum`, `_count` samples are left out when nothing was observed). */
  const served = () => {
    const samples = new Set(scrape.split('\n').filter((line) => line && !line.startsWith('#')).map((line) => /^[^{\s]+/.exec(line)![0]));
    const types = new Map([...scrape.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => [name!, type!]));
    return (name: string) => {
      // A histogram's own name has no samples in Prometheus: only its _bucket, _sum and _count do.
      if (samples.has(name) || (types.has(name) && !['histogram', 'summary'].includes(types.get(name)!))) return true;
      const [, family, part] = /^(.+)_(bucket|sum|count)$/.exec(name) ?? [];
      const type = family ? types.get(family) : undefined;
      return part === 'bucket' ? type === 'histogram' : type === 'histogram' || type === 'summary';
    };
  };

  it('reads the names out of PromQL', () => {
    expect(metricNamesIn('histogram_quantile(0.95, sum by (le, route) (rate(http_request_duration_seconds_bucket{route!="x"}[5m])))')).toEqual(['http_request_duration_seconds_bucket']);
    expect(metricNamesIn('(max(a_b) - max(a_b offset 30m)) and on() (max(c_d) > 900)')).toEqual(['a_b', 'c_d']);
    expect(metricNamesIn('time() - max(keystore_x)')).toEqual(['keystore_x']);
  });

  it('every panel and alert rule queries the provisioned Prometheus', () => {
    for (const panel of dashboardPanels().filter((one) => one.targets)) expect(panel.datasource?.uid, panel.title).toBe('keystore-prometheus');
    for (const rule of alertRules()) expect(rule.data.map((query) => query.datasourceUid), rule.title).toEqual(['keystore-prometheus', '__expr__']);
  });

  it('the dashboard shows purchases, p95 by route, keys waiting, seller reservations, sync, outbox and event-loop lag', () => {
    const expressions = dashboardPanels().flatMap((panel) => panel.targets?.map((target) => target.expr) ?? []).join('\n');
    expect(expressions).toContain('histogram_quantile(0.95, sum by (le, route) (rate(http_request_duration_seconds_bucket[5m])))');
    for (const name of ['keystore_orders_total', 'keystore_paid_lines_waiting', 'keystore_seller_reservations_total', 'keystore_supplier_sync_last_success_timestamp_seconds', 'keystore_mail_outbox_depth', 'nodejs_eventloop_lag_p99_seconds']) {
      expect(expressions).toContain(name);
    }
  });

  it('every name the dashboard and the alert rules use is one /metrics serves', () => {
    const isServed = served();
    const used = [
      ...dashboardPanels().flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: `panel "${panel.title}"`, expr: target.expr }))),
      ...alertRules().flatMap((rule) => rule.data.filter((query) => query.model.expr).map((query) => ({ where: `alert "${rule.title}"`, expr: query.model.expr! }))),
    ];
    const names = used.flatMap(({ where, expr }) => metricNamesIn(expr).map((name) => ({ where, name })));
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter(({ name }) => !isServed(name))).toEqual([]);
  });
});
