import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// nginx in front of the test and bench processes, configured from the deployment's own file
// (deploy/nginx.conf), so the test proves that file: only the upstream's servers, the listen
// address and the balancing method change. It runs in the foreground from a private prefix
// (pid, logs, temp files), as a child of the test.

export const NGINX = process.env.TEST_NGINX ?? '/usr/sbin/nginx';

/** A port nobody listens on right now (the kernel's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const DEPLOY_CONF = join(import.meta.dirname, '..', '..', 'deploy', 'nginx.conf');

/** deploy/nginx.conf's server and upstream blocks, pointed at `upstreams` and listening on `port`. */
export function proxyConfig(upstreams: string[], port: number): string {
  const deploy = readFileSync(DEPLOY_CONF, 'utf8');
  const servers = upstreams.map((url) => `    server ${new URL(url).host} max_fails=3 fail_timeout=5s;`).join('\n');
  const adapted = deploy
    // The processes under test, instead of the example's 4321 and 4322.
    .replace(/^(\s*server 127\.0\.0\.1:\d+ .*\n)+/m, `${servers}\n`)
    // Round-robin: consecutive requests alternate between the processes, so a test through the
    // proxy exercises both (least_conn would too, but only while connections are idle).
    .replace(/^\s*least_conn;\n/m, '')
    .replace(/^\s*listen \[::\]:80;\n/m, '')
    .replace(/^(\s*)listen 80;/m, `$1listen 127.0.0.1:${port};`);
  if (!adapted.includes(`listen 127.0.0.1:${port};`) || !adapted.includes(servers)) {
    throw new Error('deploy/nginx.conf no longer has the upstream servers and `listen 80;` this test replaces');
  }
  return adapted;
}

/** The whole file: deploy/nginx.conf's blocks inside an `http` block whose paths are all under `prefix`. */
function nginxConf(prefix: string, body: string): string {
  return `worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
daemon off;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path ${prefix}/client_body;
    proxy_temp_path ${prefix}/proxy;
    fastcgi_temp_path ${prefix}/fastcgi;
    uwsgi_temp_path ${prefix}/uwsgi;
    scgi_temp_path ${prefix}/scgi;
${body}
}
`;
}

export interface RunningNginx {
  url: string;
  stop(): Promise<void>;
}

/** nginx on `port` in front of `upstreams` (process URLs); refuses to start on a config `nginx -t` rejects. */
export async function startNginx(upstreams: string[], port: number): Promise<RunningNginx> {
  const prefix = mkdtempSync(join(tmpdir(), 'coinfair-nginx-'));
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(conf, nginxConf(prefix, proxyConfig(upstreams, port)));
  const args = ['-p', prefix, '-e', join(prefix, 'error.log'), '-c', conf];
  const test = spawnSync(NGINX, [...args, '-t'], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t refused the generated configuration:\n${test.stderr}`);

  const child = spawn(NGINX, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk) => {
    errors += chunk;
  });
  let exited = false;
  const gone = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (!(await listening(url))) {
    if (exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not start:\n${errors}\n${readFileSync(join(prefix, 'error.log'), 'utf8')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    async stop() {
      // SIGTERM: at once (a graceful SIGQUIT would wait for open sockets); the prefix goes with it.
      if (!exited) child.kill('SIGTERM');
      await gone;
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

async function listening(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/healthz`);
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}
