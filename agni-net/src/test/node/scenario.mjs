// The scenario NodeClientsTest runs against agni and against redis-server, with node-redis (its defaults: RESP3),
// ioredis with its defaults (6.x: RESP3, falling back to RESP2 on NOPROTO) or ioredis told to speak RESP2.
// Usage: node scenario.mjs node-redis|ioredis|ioredis-resp2 <port> <password>
//
// Prints one JSON line per step, {"step": name, "result": ...}, where the result is what the client returned
// (Buffers as hex, errors as {error: class name, message}); the test compares the lines of the two servers. Before
// the reconnect step it prints {"restart": true} and waits for a line on its input: the test restarts the server on
// the same port meanwhile. The last line is {"done": true}.
import { createInterface } from 'node:readline';
import { createClient, ErrorReply, RESP_TYPES } from 'redis';
import Redis from 'ioredis';

const [kind, portText, password] = process.argv.slice(2);
const port = Number(portText);
const host = '127.0.0.1';
const STEP_TIMEOUT_MS = 20_000;
const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();

function emit(line) {
  process.stdout.write(JSON.stringify(line) + '\n');
}

function plain(value) {
  if (Buffer.isBuffer(value)) {
    return { hex: value.toString('hex') };
  }
  if (value instanceof Error) {
    return { error: value.constructor.name, message: value.message };
  }
  if (Array.isArray(value)) {
    return value.map(plain);
  }
  if (value instanceof Map) {
    return Object.fromEntries([...value].map(([k, v]) => [String(k), plain(v)]));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value === undefined ? null : value;
}

function withTimeout(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out: ' + what)), STEP_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function step(name, action) {
  let result;
  try {
    result = await withTimeout(Promise.resolve().then(action), name);
  } catch (error) {
    result = error;
  }
  emit({ step: name, result: plain(result) });
}

// The two clients behind one small interface: call(args) sends any command; the rest uses each client's own API.
function nodeRedis(pass, reconnect) {
  const client = createClient({
    socket: { host, port, reconnectStrategy: reconnect ? (retries) => Math.min(retries * 50, 500) : false },
    password: pass,
  });
  client.on('error', () => {});
  return {
    kind: 'node-redis',
    connect: () => client.connect(),
    call: (args) => client.sendCommand(args),
    set: (key, value, options) => client.set(key, value, options),
    get: (key) => client.get(key),
    getBuffer: (key) => client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer }).get(key),
    pipeline: async (commands) => {
      const multi = client.multi();
      for (const args of commands) {
        multi.addCommand(args);
      }
      return multi.execAsPipeline();
    },
    transaction: async (commands) => {
      const multi = client.multi();
      for (const args of commands) {
        multi.addCommand(args);
      }
      return multi.exec();
    },
    isReplyError: (error) => error instanceof ErrorReply,
    close: () => client.close(),
  };
}

function ioredis(pass, reconnect) {
  const client = new Redis({
    ...(kind === 'ioredis-resp2' ? { protocol: 2 } : {}),
    host, port, password: pass, lazyConnect: true, maxRetriesPerRequest: reconnect ? null : 0,
    retryStrategy: (times) => (reconnect ? Math.min(times * 50, 500) : null),
  });
  client.on('error', () => {});
  return {
    kind,
    connect: () => client.connect(),
    call: (args) => client.call(...args),
    set: (key, value, options) => options?.EX ? client.set(key, value, 'EX', options.EX) : client.set(key, value),
    get: (key) => client.get(key),
    getBuffer: (key) => client.getBuffer(key),
    pipeline: async (commands) => {
      const replies = await client.pipeline(commands.map((args) => ['call', ...args])).exec();
      return replies.map(([error, reply]) => error ?? reply);
    },
    transaction: async (commands) => {
      const replies = await client.multi(commands.map((args) => ['call', ...args])).exec();
      return replies.map(([error, reply]) => error ?? reply);
    },
    isReplyError: (error) => error instanceof Error && error.name === 'ReplyError',
    close: () => client.quit(),
  };
}

const make = kind === 'node-redis' ? nodeRedis : ioredis;
const protocolOf = async (c) => {
  const info = String(await c.call(['CLIENT', 'INFO']));
  return Number(/ resp=(\d)/.exec(info)[1]);
};

async function waitUntil(what, condition) {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await condition()) {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('timed out waiting for ' + what);
}

const wrong = make('not-the-password', false);
await step('connect-wrong-password', async () => {
  await wrong.connect();
  return 'connected';
});
await Promise.resolve().then(() => wrong.close()).catch(() => {});

const client = make(password, true);
await step('connect', async () => {
  await client.connect();
  return 'connected';
});
await step('protocol', () => protocolOf(client));
await step('flushall', () => client.call(['FLUSHALL']));

// strings
await step('set', () => client.set('greeting', 'hello'));
await step('get', () => client.get('greeting'));
await step('get-missing', () => client.get('missing'));
await step('append', () => client.call(['APPEND', 'greeting', ' world']));
await step('strlen', () => client.call(['STRLEN', 'greeting']));
await step('getrange', () => client.call(['GETRANGE', 'greeting', '0', '4']));
await step('setrange', () => client.call(['SETRANGE', 'greeting', '6', 'agni!']));
await step('get-after-setrange', () => client.get('greeting'));
await step('incr', () => client.call(['INCR', 'counter']));
await step('incrby', () => client.call(['INCRBY', 'counter', '41']));
await step('decr', () => client.call(['DECR', 'counter']));
await step('incrbyfloat', () => client.call(['INCRBYFLOAT', 'float', '2.5']));
await step('mset', () => client.call(['MSET', 'a', '1', 'b', '2']));
await step('mget', () => client.call(['MGET', 'a', 'missing', 'b']));
await step('getset', () => client.call(['GETSET', 'a', '10']));
await step('getdel', () => client.call(['GETDEL', 'a']));
await step('setnx', () => client.call(['SETNX', 'b', 'x']));
await step('exists', () => client.call(['EXISTS', 'a', 'b', 'greeting']));
await step('del', () => client.call(['DEL', 'b', 'missing']));

// expiry
await step('set-ex', () => client.set('session', 'token', { EX: 100 }));
await step('ttl', () => client.call(['TTL', 'session']));
await step('pexpire', () => client.call(['PEXPIRE', 'session', '50000']));
await step('pttl-positive', async () => Number(await client.call(['PTTL', 'session'])) > 40000);
await step('persist', () => client.call(['PERSIST', 'session']));
await step('ttl-after-persist', () => client.call(['TTL', 'session']));
await step('set-px-short', () => client.call(['SET', 'short', 'v', 'PX', '100']));
await step('expires', () => waitUntil('short to expire', async () => (await client.get('short')) === null));
await step('expire-past-deletes', () => client.call(['EXPIRE', 'session', '-1']));
await step('get-expired', () => client.get('session'));

// pipelining
const writes = [];
const reads = [];
for (let i = 0; i < 100; i++) {
  writes.push(['SET', 'pipe:' + i, 'value-' + i]);
  reads.push(['GET', 'pipe:' + i]);
}
await step('pipeline-writes', () => client.pipeline(writes));
await step('pipeline-reads', () => client.pipeline(reads));
await step('pipeline-with-error', () => client.pipeline([['INCR', 'counter'], ['INCR', 'greeting'], ['GET', 'a']]));
await step('transaction', () => client.transaction([['SET', 'tx', '1'], ['INCR', 'tx'], ['GET', 'tx']]));

// binary values: every byte value, and a key with CR LF and NUL in it
const every = Buffer.alloc(256);
for (let i = 0; i < 256; i++) {
  every[i] = i;
}
const binaryKey = Buffer.from('bin\r\n\u0000key', 'latin1');
await step('set-binary', () => client.call(['SET', binaryKey, every]));
await step('get-binary', () => client.getBuffer(binaryKey));
await step('strlen-binary', () => client.call(['STRLEN', binaryKey]));

// SCAN: every key of a pattern, in sorted order (the order of pages is the server's)
for (let i = 0; i < 50; i++) {
  await client.call(['SET', 'scan:' + i, String(i)]);
}
await step('scan', async () => {
  const seen = new Set();
  let cursor = '0';
  do {
    const [next, keys] = await client.call(['SCAN', cursor, 'MATCH', 'scan:*', 'COUNT', '20']);
    cursor = String(next);
    for (const key of keys) {
      seen.add(String(key));
    }
  } while (cursor !== '0');
  return [...seen].sort();
});

// errors, as the client's error type
const errorTypes = async (args) => {
  try {
    return { reply: plain(await client.call(args)) };
  } catch (error) {
    return { replyError: client.isReplyError(error), ...plain(error) };
  }
};
await step('error-not-an-integer', () => errorTypes(['INCR', 'greeting']));
await step('error-unknown-command', () => errorTypes(['NOSUCHCOMMAND', 'x']));
await step('error-arity', () => errorTypes(['GET']));
await step('error-syntax', () => errorTypes(['SET', 'k', 'v', 'NX', 'XX']));
await step('error-overflow', async () => {
  await client.call(['SET', 'max', '9223372036854775807']);
  return errorTypes(['INCR', 'max']);
});

// reconnect after a server restart
emit({ restart: true });
await lines.next();
await step('reconnect', async () => {
  await waitUntil('the client to reconnect', async () => {
    try {
      await client.call(['PING']);
      return true;
    } catch {
      return false;
    }
  });
  return 'reconnected';
});
await step('set-after-reconnect', () => client.set('after', 'restart'));
await step('get-after-reconnect', () => client.get('after'));

await Promise.resolve().then(() => client.close()).catch(() => {});
input.close();
emit({ done: true });
