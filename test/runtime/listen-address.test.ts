import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { loadConfig } from '../../runtime/config/load-config.js';
import { childEnv, startChildRuntime } from '../../runtime/testing/child-runtime.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'vela-listen-'));

/**
 * Whether a TCP connection to `host:port` is accepted. 127.0.0.2 is another loopback address: a listener on
 * 127.0.0.1 refuses it, one on 0.0.0.0 (every address) accepts it, so no test traffic leaves this machine.
 */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

interface TreeService {
  name: string;
  url: string;
  listening: string;
}

function bootTree(output: string): { msg: string; services: TreeService[] } {
  const line = output.split('\n').find((l) => l.includes('"bootTree"'))!;
  const parsed = JSON.parse(line) as { msg: string; bootTree: { services: TreeService[] } };
  return { msg: parsed.msg, services: parsed.bootTree.services };
}

test('by default every service listens on 127.0.0.1 only', (t) => {
  const config = loadConfig({ env: {}, cwd: tmp() });
  for (const name of ['gateway', 'search', 'connector']) t.is(config.services[name]!.host, '127.0.0.1', name);
});

test('VELA_HOST sets the address of every service, over the configuration file', (t) => {
  const dir = tmp();
  const file = path.join(dir, 'vela.json');
  writeFileSync(
    file,
    JSON.stringify({ services: { search: { port: 2700, host: '127.0.0.1' }, extra: { port: 4000 } } }),
  );
  const fromFile = loadConfig({ env: {}, cwd: dir, flags: { configFile: file } });
  t.is(fromFile.services.extra!.host, '127.0.0.1');
  const opened = loadConfig({ env: { VELA_HOST: '0.0.0.0' }, cwd: dir, flags: { configFile: file } });
  for (const name of ['gateway', 'search', 'connector', 'extra']) t.is(opened.services[name]!.host, '0.0.0.0', name);
  t.is(
    loadConfig({ env: { VELA_HOST: '' }, cwd: dir }).services.gateway!.host,
    '127.0.0.1',
    'an empty variable counts as unset',
  );
  const oneService = path.join(dir, 'one.json');
  writeFileSync(oneService, JSON.stringify({ services: { connector: { port: 30130, host: '::' } } }));
  const one = loadConfig({ env: {}, cwd: dir, flags: { configFile: oneService } });
  t.is(one.services.connector!.host, '::');
  t.is(one.services.search!.host, '127.0.0.1');
});

test('a default start is not reachable on another address, and its boot tree shows the loopback address bound', async (t) => {
  const dataDir = tmp();
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = childEnv();
  delete env.VELA_HOST;
  const vela = await startChildRuntime(['--plugins', 'gateway', '--no-seed', '--data-dir', dataDir], env);
  try {
    const { msg, services } = bootTree(vela.output());
    const gateway = services.find((s) => s.name === 'gateway')!;
    const port = Number(new URL(gateway.url).port);
    t.is(gateway.listening, `127.0.0.1:${port}`);
    t.is(gateway.url, `http://127.0.0.1:${port}`);
    t.true(msg.includes(`gateway http://127.0.0.1:${port}\n`) || msg.endsWith(`gateway http://127.0.0.1:${port}`), msg);
    t.false(msg.includes('listening on'), 'nothing to warn about');
    t.true(await accepts('127.0.0.1', port));
    t.false(await accepts('127.0.0.2', port), 'another address of this machine is refused');
  } finally {
    await vela.stop();
  }
});

test('VELA_HOST=0.0.0.0 opens every service, and the boot tree and ready line say so', async (t) => {
  const dataDir = tmp();
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const vela = await startChildRuntime(
    ['--plugins', 'gateway', '--no-seed', '--data-dir', dataDir],
    childEnv({ VELA_HOST: '0.0.0.0' }),
  );
  try {
    const { msg, services } = bootTree(vela.output());
    const gateway = services.find((s) => s.name === 'gateway')!;
    const port = Number(new URL(gateway.url).port);
    t.is(gateway.listening, `0.0.0.0:${port}`);
    t.is(gateway.url, `http://127.0.0.1:${port}`, 'the URL is still one this machine opens');
    t.true(msg.includes(`gateway http://127.0.0.1:${port} (listening on 0.0.0.0:${port})`), msg);
    t.true(await accepts('127.0.0.2', port), 'reachable on every address');
    const ready = await new Promise<string>((resolve) => {
      const look = () => {
        const line = vela
          .output()
          .split('\n')
          .find((l) => l.includes('"ready: open'));
        if (line) resolve(line);
        else setTimeout(look, 50);
      };
      look();
    });
    t.like(JSON.parse(ready) as object, { services: [{ name: 'gateway', listening: `0.0.0.0:${port}` }] });
  } finally {
    await vela.stop();
  }
});
