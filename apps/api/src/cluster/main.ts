import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { RestartPolicy } from './restart-policy';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy';

/**
 * `npm run start:cluster`: the API as several processes over one database, as a load-balanced
 * deployment runs it, on one machine:
 *   - the embedded MongoDB engine in its own process (unless MONGODB_URI names a server),
 *   - API_INSTANCES API processes (default 2) on 127.0.0.1, ports API_PORT+1, API_PORT+2, ...,
 *   - a round-robin HTTP proxy on API_PORT (default 4000), where a single API would listen.
 * The first instance starts alone (it seeds an empty development database), then the others.
 * MONGO_TRANSACTION_LIFETIME_LIMIT_SECONDS sets the engine's transaction lifetime limit (default 60 s).
 * Each member's start logs its pid. A member that exits is started again (after 0.5 s, doubling up to 10 s while it keeps dying; see
 * restart-policy.ts), one log line per restart; meanwhile the proxy routes around it. An in-memory
 * engine is not restarted (its data died with it): then everything stops. Only SIGINT/SIGTERM stop
 * everything otherwise: the proxy, the instances (each finishing its requests), the engine.
 */
const env = process.env;
const root = path.resolve(__dirname, '..', '..', '..', '..');
const apiPort = Number(env.API_PORT || env.PORT || 4000);
const instances = Number(env.API_INSTANCES || 2);
const host = env.HOST || '0.0.0.0';

/** A process of the cluster, started again when it exits (unless `restart` is false). */
interface Member {
  name: string;
  child: ChildProcess;
  policy: RestartPolicy;
  timer?: NodeJS.Timeout;
}
let engineMember: Member | undefined;
const apiMembers: Member[] = [];
let proxy: RoundRobinProxy | undefined;
let stopping = false;

function log(line: string): void {
  process.stdout.write(`[cluster] ${line}\n`);
}

function spawnChild(name: string, args: string[], extraEnv: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = '';
    stream.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
    });
  }
  return child;
}

/** Starts `name` and keeps it running: on an exit it is started again after the policy's delay. */
function run(name: string, start: () => ChildProcess, restart = true): Member {
  const member: Member = { name, child: start(), policy: new RestartPolicy() };
  member.policy.started(Date.now());
  log(`${name} started (pid ${member.child.pid})`);
  const watch = (child: ChildProcess) =>
    child.on('exit', (code, signal) => {
      if (stopping) return;
      if (!restart) {
        log(`${name} exited (${signal ?? code}); it cannot be restarted: stopping everything`);
        return void stop(code || 1);
      }
      const delay = member.policy.exited(Date.now());
      log(`${name} exited (${signal ?? code}); restarting in ${delay} ms`);
      member.timer = setTimeout(() => {
        if (stopping) return;
        member.child = start();
        member.policy.started(Date.now());
        log(`${name} restarted (pid ${member.child.pid})`);
        watch(member.child);
      }, delay);
    });
  watch(member.child);
  return member;
}

/** Resolves with the first match of `pattern` in the child's output. */
function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stderr!.off('data', onData);
        resolve(match);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', () => reject(new Error(`exited before printing ${pattern}`)));
  });
}

async function waitForHealth(port: number, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the API on port ${port} was not healthy within ${timeoutMs} ms`);
}

async function stop(code = 0): Promise<void> {
  if (stopping) return;
  stopping = true;
  await proxy?.close();
  const exited = (c: ChildProcess) =>
    c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise((r) => c.once('exit', r));
  for (const member of [...apiMembers, engineMember]) clearTimeout(member?.timer);
  // the API instances first (they finish in-flight requests and release their leases), then the engine
  const apis = apiMembers.map((m) => m.child);
  for (const api of apis) api.kill('SIGTERM');
  await Promise.race([Promise.all(apis.map(exited)), new Promise((r) => setTimeout(r, 20000))]);
  const engine = engineMember?.child;
  engine?.kill('SIGTERM');
  if (engine) await Promise.race([exited(engine), new Promise((r) => setTimeout(r, 5000))]);
  process.exit(code);
}

async function main(): Promise<void> {
  if (!Number.isInteger(instances) || instances < 1 || instances > 32) {
    throw new Error(`API_INSTANCES must be an integer between 1 and 32 (got "${env.API_INSTANCES}")`);
  }
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  let mongoUri = env.MONGODB_URI;
  if (!mongoUri) {
    const inMemory = ['1', 'true', 'yes', 'on'].includes((env.EMBEDDED_IN_MEMORY || '').toLowerCase());
    const dataDir = path.resolve(env.DATA_DIR || path.join(root, '.data'));
    const enginePort = Number(env.MONGO_PORT || apiPort + 1000 + 17); // 5017 next to the default API port
    // mongod's transactionLifetimeLimitSeconds (default 60): how long a transaction a killed instance
    // left open keeps its documents locked
    const lifetime = env.MONGO_TRANSACTION_LIFETIME_LIMIT_SECONDS;
    // the instances reach the engine on this machine over a Unix socket, as a co-located mongod's
    // /tmp/mongodb-<port>.sock (over TCP each command costs both sides about a tenth more CPU)
    // (not on Windows, where a socket is a named pipe: TCP there)
    const socketPath =
      process.platform === 'win32' ? undefined : path.join(tmpdir(), `embedded-mongo-${enginePort}.sock`);
    const startEngine = () => {
      // a killed engine leaves its socket file behind: the next one could not listen there
      if (socketPath) rmSync(socketPath, { force: true });
      return spawnChild(
        'engine',
        [
          path.join(root, 'libs/embedded-mongo/dist/cli.js'),
          '--port',
          String(enginePort),
          ...(socketPath ? ['--socket', socketPath] : []),
          ...(lifetime ? ['--setParameter', `transactionLifetimeLimitSeconds=${lifetime}`] : []),
          ...(inMemory ? ['--memory'] : ['--dbpath', path.join(dataDir, 'embedded-mongo')]),
        ],
        {},
      );
    };
    // a restarted engine listens where the last one did: the instances' drivers reconnect to it
    engineMember = run('engine', startEngine, !inMemory);
    const [, tcpUri, socketUri] = await waitForOutput(
      engineMember.child,
      /embedded-mongo listening: (mongodb:\/\/\S+)(?: and (mongodb:\/\/\S+))?/,
      60000,
    );
    const uri = socketUri ?? tcpUri;
    mongoUri = uri;
  }

  const publicUrl = env.PUBLIC_API_URL || `http://localhost:${apiPort}`;
  const ports = Array.from({ length: instances }, (_, i) => apiPort + 1 + i);
  const start = (i: number) =>
    apiMembers.push(
      run(`api-${i + 1}`, () =>
        spawnChild(`api-${i + 1}`, [path.join(root, 'apps/api/dist/main.js')], {
          PORT: String(ports[i]),
          HOST: '127.0.0.1',
          MONGODB_URI: mongoUri!,
          PUBLIC_API_URL: publicUrl,
          // the proxy is on loopback: the API believes its X-Forwarded-For (rate limits per real client)
          TRUST_PROXY: env.TRUST_PROXY || 'loopback',
        }),
      ),
    );
  start(0);
  await waitForHealth(ports[0], 120000); // the first one alone: it seeds an empty development database
  for (let i = 1; i < instances; i++) start(i);
  await Promise.all(ports.slice(1).map((p) => waitForHealth(p, 120000)));

  proxy = await startRoundRobinProxy({
    upstreams: ports.map((port) => ({ host: '127.0.0.1', port })),
    port: apiPort,
    host,
    log,
  });
  log(
    `up: http://localhost:${apiPort}/api -> ${ports.map((p) => `127.0.0.1:${p}`).join(', ')} over ${mongoUri!.replace(/\/\/([^@/]+)@/, '//***@')}`,
  );
}

main().catch((error: Error) => {
  log(`failed: ${error.message}`);
  void stop(1);
});
