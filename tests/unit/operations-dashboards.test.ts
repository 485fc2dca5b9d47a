import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../server/observability/metrics.ts';

// The Grafana dashboard and the Prometheus rules of deploy/ (issue 25) read the metrics the server
// exports: every metric and label they name must exist in the registry createMetrics() builds, a
// counter is only ever read through rate() or increase(), a gauge never is, and every panel and
// alert carries what Grafana and Alertmanager need. promtool's own tests of the rules
// (deploy/prometheus/coinfair-alerts.test.yml) run too where promtool is installed.

const root = join(import.meta.dirname, '..', '..');
const prometheusDir = join(root, 'deploy', 'prometheus');
// The YAML parser Astro carries, as scripts/check-content.ts reads the content with it.
const yaml = createRequire(join(root, 'node_modules', 'astro', 'package.json'))('js-yaml') as {
  load(source: string): unknown;
};

interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type?: string; uid?: string };
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: { refId?: string; expr?: string; legendFormat?: string; datasource?: { uid?: string } }[];
  panels?: Panel[];
}
interface Dashboard {
  title: string;
  uid: string;
  schemaVersion: number;
  panels: Panel[];
  templating: { list: { name: string; type: string; query: unknown }[] };
}
interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const dashboard = JSON.parse(
  readFileSync(join(root, 'deploy', 'grafana', 'coinfair-dashboard.json'), 'utf8'),
) as Dashboard;
const rules = (
  yaml.load(readFileSync(join(prometheusDir, 'coinfair-alerts.yml'), 'utf8')) as {
    groups: { name: string; rules: Rule[] }[];
  }
).groups.flatMap((group) => group.rules);
const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
const graphs = panels.filter((panel) => panel.type !== 'row');
const panelExpressions = graphs.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr ?? ''));

// What the server exports: name → type and label names. Prometheus adds job and instance to each
// series it scrapes; `up` is its own.
const metrics = createMetrics();
const exported = new Map<string, { type: string; labels: string[] }>(
  metrics.registry
    .getMetricsAsArray()
    .map((metric) => [
      metric.name,
      { type: String(metric.type), labels: [...((metric as { labelNames?: readonly string[] }).labelNames ?? [])] },
    ]),
);
exported.set('up', { type: 'gauge', labels: [] });
const TARGET_LABELS = ['job', 'instance'];
// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, which the dashboard's panels hold as is.
const DATASOURCE = '${datasource}';

/** The series a name reads: `x_bucket` of histogram x (with `le`), `x_sum`, `x_count`, or the metric itself. */
function series(name: string): { metric: string; counter: boolean; labels: string[] } | undefined {
  const own = exported.get(name);
  if (own) return { metric: name, counter: own.type === 'counter', labels: [...own.labels, ...TARGET_LABELS] };
  const histogram = /^(.+)_(bucket|sum|count)$/.exec(name);
  const base = histogram?.[1] ? exported.get(histogram[1]) : undefined;
  if (!histogram?.[1] || base?.type !== 'histogram') return undefined;
  const labels = [...base.labels, ...TARGET_LABELS, ...(histogram[2] === 'bucket' ? ['le'] : [])];
  return { metric: histogram[1], counter: true, labels };
}

const FUNCTIONS = new Set(['sum', 'max', 'min', 'rate', 'increase', 'histogram_quantile', 'time', 'count', 'avg']);
const KEYWORDS = new Set([
  'by',
  'on',
  'and',
  'or',
  'unless',
  'group_left',
  'group_right',
  'without',
  'ignoring',
  'bool',
]);

/** Every metric an expression reads, with its matchers and what follows it (a range or not). */
function selectors(expr: string) {
  // Strings ("5.."), durations ([10m]) and numbers are not names; Grafana's $variables neither.
  const bare = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const found: { name: string; matchers: string[]; range: boolean }[] = [];
  for (const match of bare.matchAll(/(?<![\w$.])([a-zA-Z_:][\w:]*)\s*(\{[^}]*\})?\s*(\[)?/g)) {
    const [, name = '', braces = '', range] = match;
    const next = bare.slice((match.index ?? 0) + match[0].length).trimStart();
    if (FUNCTIONS.has(name) || KEYWORDS.has(name)) continue;
    // A label list of by/on, a label inside braces: not a metric.
    if (/\b(by|on|without|ignoring|group_left|group_right)\s*\([^)]*$/.test(bare.slice(0, match.index))) continue;
    if (next.startsWith('(') && !braces) continue;
    found.push({
      name,
      matchers: [...braces.matchAll(/(\w+)\s*(?:=~|!~|!=|=)/g)].map((m) => m[1] ?? ''),
      range: !!range,
    });
  }
  return found;
}

/** Labels named in by (…), on (…) and group_left (…) clauses. */
const groupingLabels = (expr: string) =>
  [...expr.matchAll(/\b(?:by|on|without|ignoring|group_left|group_right)\s*\(([^)]*)\)/g)].flatMap((m) =>
    (m[1] ?? '')
      .split(',')
      .map((label) => label.trim())
      .filter(Boolean),
  );

/** Problems of one expression: unknown metrics or labels, counters read without a range, gauges with one. */
function problems(expr: string): string[] {
  const found: string[] = [];
  const known = new Set<string>();
  const read = selectors(expr);
  if (read.length === 0) found.push('reads no metric');
  for (const { name, matchers, range } of read) {
    const what = series(name);
    if (!what) {
      found.push(`${name} is not a metric the server exports`);
      continue;
    }
    for (const label of what.labels) known.add(label);
    for (const label of matchers) if (!what.labels.includes(label)) found.push(`${name} has no label ${label}`);
    if (what.counter && !range) found.push(`${name} is a counter, read without rate() or increase()`);
    if (!what.counter && range) found.push(`${name} is a gauge, read over a range`);
  }
  for (const label of groupingLabels(expr)) if (!known.has(label)) found.push(`no metric here has the label ${label}`);
  for (const m of expr.matchAll(/histogram_quantile\(\s*[\d.]+\s*,\s*sum by \(([^)]*)\)/g))
    if (!(m[1] ?? '').split(',').some((label) => label.trim() === 'le')) found.push('histogram_quantile without le');
  if (/histogram_quantile/.test(expr) && !/_bucket\b/.test(expr)) found.push('histogram_quantile of no buckets');
  return found;
}

describe('the checker itself', () => {
  it('finds unknown metrics and labels, and misread counters and gauges', () => {
    expect(problems('sum by (route) (rate(coinfair_http_request_duration_seconds_count{status=~"5.."}[5m]))')).toEqual(
      [],
    );
    expect(problems('coinfair_trade_total')).toEqual(['coinfair_trade_total is not a metric the server exports']);
    expect(problems('rate(coinfair_trades_total{currency="BTC"}[5m])')).toEqual([
      'coinfair_trades_total has no label currency',
    ]);
    expect(problems('coinfair_sendouts_total')).toEqual([
      'coinfair_sendouts_total is a counter, read without rate() or increase()',
    ]);
    expect(problems('rate(coinfair_jobs_leader[5m])')).toEqual(['coinfair_jobs_leader is a gauge, read over a range']);
    expect(problems('sum by (what) (coinfair_jobs_leader)')).toEqual(['no metric here has the label what']);
    expect(problems('coinfair_ledger_verified_bucket')).toEqual([
      'coinfair_ledger_verified_bucket is not a metric the server exports',
    ]);
    expect(
      problems('histogram_quantile(0.99, sum by (route) (rate(coinfair_http_request_duration_seconds_bucket[5m])))'),
    ).toEqual(['histogram_quantile without le']);
    expect(problems('time() - max(coinfair_ledger_verified_at_seconds{job=~"$job"}) > 3 * 3600')).toEqual([]);
  });
});

describe('deploy/grafana/coinfair-dashboard.json', () => {
  it('is an importable dashboard with a Prometheus data source variable', () => {
    expect(dashboard.uid).toBe('coinfair-overview');
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    const variables = dashboard.templating.list;
    expect(variables.find((variable) => variable.name === 'datasource')).toMatchObject({
      type: 'datasource',
      query: 'prometheus',
    });
    expect(variables.map((variable) => variable.name)).toEqual(['datasource', 'job', 'instance', 'route']);
  });

  it('gives every panel a unique id, a place on the grid, the data source and at least one query', () => {
    const ids = panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(graphs.length).toBeGreaterThan(30);
    for (const panel of graphs) {
      const where = `${panel.title} (${panel.id})`;
      expect(panel.datasource, where).toEqual({ type: 'prometheus', uid: DATASOURCE });
      expect(panel.targets?.length, where).toBeGreaterThan(0);
      const refIds = (panel.targets ?? []).map((target) => target.refId);
      expect(new Set(refIds).size, where).toBe(refIds.length);
      for (const target of panel.targets ?? []) {
        expect(target.expr?.trim(), where).toBeTruthy();
        expect(target.datasource?.uid, where).toBe(DATASOURCE);
      }
      const { x, w, h } = panel.gridPos;
      expect(x >= 0 && w > 0 && h > 0 && x + w <= 24, where).toBe(true);
    }
  });

  it('reads only metrics and labels the server exports, counters through rate over $__rate_interval', () => {
    const found = panelExpressions.flatMap((expr) => problems(expr).map((problem) => `${problem}: ${expr}`));
    expect(found).toEqual([]);
    for (const expr of panelExpressions)
      for (const [, window] of expr.matchAll(/\[([^\]]+)\]/g)) expect(window, expr).toBe('$__rate_interval');
  });

  it('uses only the variables it defines', () => {
    const defined = new Set(dashboard.templating.list.map((variable) => variable.name));
    for (const expr of panelExpressions)
      for (const [, name = ''] of expr.matchAll(/\$(\w+)/g))
        if (!name.startsWith('__')) expect(defined.has(name), `$${name} in ${expr}`).toBe(true);
  });

  it('names in legends only labels the query keeps', () => {
    for (const panel of graphs)
      for (const target of panel.targets ?? []) {
        const legend = [...(target.legendFormat ?? '').matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]);
        const kept = groupingLabels(target.expr ?? '');
        // An aggregation keeps only its by (…) labels; a bare selector keeps all of the metric's.
        const aggregated = /^\s*(sum|max|min|count|avg|histogram_quantile)\b/.test(target.expr ?? '');
        for (const label of legend) {
          const ok = aggregated
            ? kept.includes(label ?? '')
            : selectors(target.expr ?? '').some(({ name }) => series(name)?.labels.includes(label ?? ''));
          expect(ok, `${panel.title}: {{${label}}} in ${target.expr}`).toBe(true);
        }
      }
  });

  it('covers each metric of the server', () => {
    const used = new Set(panelExpressions.flatMap((expr) => selectors(expr).map(({ name }) => series(name)?.metric)));
    const ours = [...exported.keys()].filter((name) => name.startsWith('coinfair_'));
    expect(ours.length).toBe(18);
    expect(ours.filter((name) => !used.has(name))).toEqual([]);
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ])
      expect(used.has(name), name).toBe(true);
  });
});

describe('deploy/prometheus/coinfair-alerts.yml', () => {
  it('gives every alert a name, an expression, a duration, a severity and a summary', () => {
    expect(rules.length).toBeGreaterThanOrEqual(10);
    const names = rules.map((rule) => rule.alert);
    expect(new Set(names).size).toBe(names.length);
    for (const rule of rules) {
      const where = rule.alert ?? rule.record ?? '(unnamed)';
      expect(rule.alert, where).toMatch(/^Coinfair[A-Z]\w+$/);
      expect(rule.expr?.trim(), where).toBeTruthy();
      expect(rule.for, where).toMatch(/^\d+[smh]$/);
      expect(['critical', 'warning'], where).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary?.trim(), where).toBeTruthy();
      expect(rule.annotations?.description?.trim(), where).toBeTruthy();
      expect(problems(rule.expr), where).toEqual([]);
    }
  });

  it('watches what should wake someone', () => {
    const critical = (name: string) => rules.find((rule) => rule.alert === name)?.labels?.severity;
    for (const name of [
      'CoinfairLedgerVerificationFailing',
      'CoinfairSendoutsStuck',
      'CoinfairJobsLeaderMissing',
      'CoinfairJobsLeaderDuplicated',
      'CoinfairHighErrorRatio',
      'CoinfairDatabaseUnreachable',
      'CoinfairAllInstancesDown',
    ])
      expect(critical(name), name).toBe('critical');
    const reads = new Set(rules.flatMap((rule) => selectors(rule.expr).map(({ name }) => series(name)?.metric)));
    for (const name of [
      'coinfair_ledger_verified',
      'coinfair_ledger_verified_at_seconds',
      'coinfair_sendouts_oldest_waiting_seconds',
      'coinfair_jobs_leader',
      'coinfair_http_request_duration_seconds',
      'coinfair_background_failures_total',
      'coinfair_job_last_success_timestamp_seconds',
      'coinfair_job_interval_seconds',
      'coinfair_database_latency_seconds',
      'up',
    ])
      expect(reads.has(name), name).toBe(true);
  });

  it('is what the example configuration loads, with the token from a file', () => {
    const config = yaml.load(readFileSync(join(prometheusDir, 'prometheus.example.yml'), 'utf8')) as {
      rule_files: string[];
      scrape_configs: {
        job_name: string;
        authorization?: { type?: string; credentials?: string; credentials_file?: string };
      }[];
    };
    expect(config.rule_files).toEqual(['coinfair-alerts.yml']);
    for (const job of config.scrape_configs) {
      expect(job.job_name).toMatch(/^coinfair/);
      expect(job.authorization?.credentials).toBeUndefined();
    }
    expect(config.scrape_configs.map((job) => job.authorization?.credentials_file ?? null)).toEqual([
      null,
      '/etc/prometheus/coinfair-metrics-token',
    ]);
  });

  const promtool = !spawnSync('promtool', ['--version']).error;
  it.skipIf(!promtool)("passes promtool's checks and its rule tests (coinfair-alerts.test.yml)", () => {
    for (const args of [
      ['check', 'rules', 'coinfair-alerts.yml'],
      ['test', 'rules', 'coinfair-alerts.test.yml'],
    ]) {
      const run = spawnSync('promtool', args, { cwd: prometheusDir, encoding: 'utf8' });
      expect(run.status, `promtool ${args.join(' ')}\n${run.stdout}${run.stderr}`).toBe(0);
    }
  });
});
