#!/usr/bin/env node
// Throughput of ONNX Runtime (npm onnxruntime-node) with C requests in flight on
// one session: the peer of `ge run --concurrency C` in bench/concurrency.sh.
//
//   node bench/ort/concurrent.js MODEL.onnx [INPUT.npy | NAME=INPUT.npy]...
//        [--concurrency C] [--repeat R] [--warmup W] [--intra N] [--pool P]
//
// R requests (default 200) go to one InferenceSession, C at a time: each one
// that completes starts the next, so C session.run calls are always in flight,
// each with its own feeds object (the same input tensors). Prints one JSON line
//   {"model":..,"concurrency":C,"intra":N,"pool":P,"requests":R,"requests_per_s":..}
//
// Threads. onnxruntime-node runs each session.run on a thread of node's libuv
// pool (P threads, UV_THREADPOOL_SIZE, set here before the pool starts) and that
// run computes on its own thread plus N-1 threads of the session's intra-op pool.
// Busy compute threads are at most min(C, P) * N. The default keeps that at 2,
// ge's --threads 2 budget: N = 2, P = 1 for C = 1 (one run, two threads inside
// it, as ge uses both threads in kernels at C = 1), N = 1, P = 2 for C >= 2 (two
// runs at once, one thread each: ORT's intra-op pool is shared by concurrent runs
// of one session, so N = 2 with two runs would put up to 3 threads to work).
// --intra and --pool override (the product should stay <= 2).
'use strict';

const path = require('path');

function die(msg) {
  process.stderr.write('concurrent.js: ' + msg + '\n');
  process.exit(2);
}

function parseArgs(argv) {
  const a = { model: null, inputs: [], concurrency: 1, repeat: 200, warmup: 10, intra: 0, pool: 0 };
  const num = (i, name, min) => {
    if (i >= argv.length) die(name + ' needs a value');
    const v = Number(argv[i]);
    if (!Number.isInteger(v) || v < min) die(name + ': bad value ' + argv[i]);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const s = argv[i];
    if (s === '--concurrency') a.concurrency = num(++i, s, 1);
    else if (s === '--repeat') a.repeat = num(++i, s, 1);
    else if (s === '--warmup') a.warmup = num(++i, s, 0);
    else if (s === '--intra') a.intra = num(++i, s, 1);
    else if (s === '--pool') a.pool = num(++i, s, 1);
    else if (s === '--input') { if (++i >= argv.length) die(s + ' needs a value'); a.inputs.push(argv[i]); }
    else if (s.startsWith('--')) die('unknown option ' + s);
    else if (a.model === null) a.model = s;
    else a.inputs.push(s);
  }
  if (a.model === null)
    die('usage: node bench/ort/concurrent.js MODEL.onnx [INPUT.npy | NAME=INPUT.npy]... ' +
        '[--concurrency C] [--repeat R] [--warmup W] [--intra N] [--pool P]');
  if (!a.intra) a.intra = a.concurrency === 1 ? 2 : 1;
  if (!a.pool) a.pool = a.concurrency === 1 ? 1 : 2;
  return a;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  process.env.UV_THREADPOOL_SIZE = String(args.pool); // read when the pool first starts
  const { loadOrt, readFeeds } = require('./run.js');
  const ort = loadOrt();
  const session = await ort.InferenceSession.create(args.model, {
    intraOpNumThreads: args.intra,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const tensors = readFeeds(ort, session, args.inputs);
  const feeds = () => Object.assign({}, tensors);

  // C chains of requests; each completion starts the next until R have started.
  async function wave(total) {
    let started = 0;
    const chain = async () => {
      while (started < total) {
        started++;
        await session.run(feeds());
      }
    };
    const chains = [];
    for (let k = 0; k < Math.min(args.concurrency, total); k++) chains.push(chain());
    await Promise.all(chains);
  }
  if (args.warmup) await wave(args.warmup);
  const t0 = process.hrtime.bigint();
  await wave(args.repeat);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(JSON.stringify({
    model: path.basename(args.model),
    concurrency: args.concurrency,
    intra: args.intra,
    pool: args.pool,
    requests: args.repeat,
    requests_per_s: Number((args.repeat / s).toPrecision(6)),
  }));
  if (typeof session.release === 'function') await session.release();
}

main().catch(e => { process.stderr.write('concurrent.js: ' + (e && e.stack || e) + '\n'); process.exit(1); });
