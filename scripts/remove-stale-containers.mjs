// node scripts/remove-stale-containers.mjs: removes the containers of the images the container
// tests build (meetings-emulator:testcontainers from the repository's Dockerfile, and
// meetings-emulator:testcontainers-package from the installed package's) that an interrupted run
// left on the Docker engine API named by DOCKER_HOST (a unix socket). .ci/run calls it before and
// after the tests.
//
// Why it matters: a container publishes its port on the host through a NAT rule for a port the
// kernel handed out, and nothing keeps that port bound once the run that started the container is
// killed. The kernel then hands the same port to a test's own server, and the rule sends that
// test's connections to the dead container: "connection refused" in tests that have nothing to do
// with containers. Removing the container removes its rule.
import { request } from 'node:http';
import process from 'node:process';

const IMAGE = /^(?:[^/]+\/)*meetings-emulator:testcontainers(?:-package)?$/;
const say = (line) => process.stdout.write(`stale containers: ${line}\n`);
const host = process.env.DOCKER_HOST ?? '';
if (!host.startsWith('unix://')) {
  say('DOCKER_HOST is not a unix socket; nothing checked');
  process.exit(0);
}
const socketPath = host.slice('unix://'.length);

function call(method, path) {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method, path, timeout: 30_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
    req.on('error', reject);
    req.end();
  });
}

try {
  const list = await call('GET', '/containers/json?all=true');
  if (list.status !== 200) throw new Error(`GET /containers/json answered ${list.status}`);
  const stale = JSON.parse(list.body).filter((c) => IMAGE.test(c.Image ?? ''));
  for (const c of stale) {
    const removed = await call('DELETE', `/containers/${encodeURIComponent(c.Id)}?force=true&v=true`);
    const ok = removed.status === 204 || removed.status === 404;
    say(`${ok ? 'removed' : `could not remove (${removed.status})`} ${c.Id.slice(0, 12)} (${c.Image}, ${c.State})`);
  }
  if (stale.length === 0) say('none');
} catch (err) {
  // Not fatal: the container tests report their own trouble.
  say(`not checked: ${err instanceof Error ? err.message : String(err)}`);
}
