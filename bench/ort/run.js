#!/usr/bin/env node
// Runs an ONNX model with ONNX Runtime (npm onnxruntime-node), the peer that
// ge's benchmarks compare against, and prints one JSON line of timings.
//
//   node bench/ort/run.js MODEL.onnx [INPUT.npy | NAME=INPUT.npy]... [--threads N]
//        [--inter M] [--repeat R] [--warmup W] [--output OUT.npy | --outdir DIR]
//        [--profile PREFIX]
//
// An input given as a bare INPUT.npy feeds the model's inputs in order; NAME=FILE
// feeds the input NAME. The session runs with N intra-op threads (default 1),
// sequential execution (--inter M: ORT's parallel execution mode with M inter-op
// threads) and all graph optimizations. After W
// warm-up runs (default 10) it times R runs (default 100), one at a time, and prints
//   {"model":"...","threads":N,"repeat":R,"median_ms":..,"median_cpu_ms":..,"p10_ms":..,"p90_ms":..}
// (median_cpu_ms: the CPU time of a run, every thread of the process).
// --output writes the first output of the last run; --outdir writes every output
// as DIR/<name>.npy (characters outside [A-Za-z0-9._-] replaced by "_").
// --profile turns on ORT's profiler and writes its trace (every node of every
// run, warm-up included) to PREFIX_<date>.json (bench/model_layers.py reads it).
//
// onnxruntime-node is looked up in $GE_ORT_DIR (default build/ort, as installed
// by `npm install --ignore-scripts --prefix build/ort onnxruntime-node@1.30`),
// then by plain require. The .npy reader/writer handles little-endian float32,
// float64, int32, int64 and bool arrays in C order.
'use strict';

const fs = require('fs');
const path = require('path');

function die(msg) {
  process.stderr.write('run.js: ' + msg + '\n');
  process.exit(2);
}

function loadOrt() {
  const root = path.resolve(__dirname, '..', '..');
  const dir = process.env.GE_ORT_DIR || path.join(root, 'build', 'ort');
  const candidates = [path.join(dir, 'node_modules', 'onnxruntime-node'), 'onnxruntime-node'];
  for (const c of candidates) {
    try {
      return require(c);
    } catch (e) {
      if (e.code !== 'MODULE_NOT_FOUND') throw e;
    }
  }
  die('onnxruntime-node not found; install it with\n' +
      '  npm install --ignore-scripts --prefix build/ort onnxruntime-node@1.30');
}

// ---- .npy ---------------------------------------------------------------

const DTYPES = {
  // descr: [ort type, TypedArray, bytes per element]
  '<f4': ['float32', Float32Array, 4],
  '<f8': ['float64', Float64Array, 8],
  '<i4': ['int32', Int32Array, 4],
  '<i8': ['int64', BigInt64Array, 8],
  '|b1': ['bool', Uint8Array, 1],
};

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.length < 10 || buf[0] !== 0x93 || buf.toString('latin1', 1, 6) !== 'NUMPY')
    die(file + ': not a .npy file');
  const major = buf[6];
  let hlen, hstart;
  if (major === 1) { hlen = buf.readUInt16LE(8); hstart = 10; }
  else if (major === 2 || major === 3) { hlen = buf.readUInt32LE(8); hstart = 12; }
  else die(file + ': unsupported .npy version ' + major);
  const header = buf.toString('latin1', hstart, hstart + hlen);
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header);
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header);
  const shape = /'shape'\s*:\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shape) die(file + ': bad .npy header ' + header);
  if (fortran[1] === 'True') die(file + ': Fortran-order arrays are not supported');
  let d = descr[1];
  if (d === '<b1' || d === '?') d = '|b1';
  const t = DTYPES[d];
  if (!t) die(file + ': unsupported dtype ' + d + ' (little-endian f4, f8, i4, i8, b1 only)');
  const dims = shape[1].split(',').map(s => s.trim()).filter(s => s.length).map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  const off = hstart + hlen;
  if (buf.length - off !== count * t[2])
    die(file + ': expected ' + count * t[2] + ' data bytes, found ' + (buf.length - off));
  // Copy into an aligned buffer: the data offset need not be a multiple of 8.
  const data = new t[1](count);
  new Uint8Array(data.buffer).set(buf.subarray(off, off + count * t[2]));
  return { type: t[0], data, dims };
}

function writeNpy(file, tensor) {
  const byType = { float32: '<f4', float64: '<f8', int32: '<i4', int64: '<i8', bool: '|b1' };
  const descr = byType[tensor.type];
  if (!descr) die('cannot write output of type ' + tensor.type + ' as .npy');
  const dims = tensor.dims;
  const shape = dims.length === 1 ? '(' + dims[0] + ',)' : '(' + dims.join(', ') + ')';
  let header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ', }';
  // Pad so that magic + length + header + '\n' is a multiple of 64, as numpy does.
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const pre = Buffer.alloc(10);
  pre[0] = 0x93; pre.write('NUMPY', 1, 'latin1'); pre[6] = 1; pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  const d = tensor.data;
  const body = Buffer.from(d.buffer, d.byteOffset, d.byteLength);
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'), body]));
}

// ---- main ---------------------------------------------------------------

function parseArgs(argv) {
  const a = { model: null, inputs: [], threads: 1, inter: 0, repeat: 100, warmup: 10, output: null, outdir: null, profile: null };
  const num = (i, name) => {
    if (i >= argv.length) die(name + ' needs a value');
    const v = Number(argv[i]);
    if (!Number.isInteger(v) || v < 0) die(name + ': bad value ' + argv[i]);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const s = argv[i];
    if (s === '--threads') a.threads = num(++i, s);
    else if (s === '--inter') a.inter = num(++i, s);
    else if (s === '--repeat') a.repeat = num(++i, s);
    else if (s === '--warmup') a.warmup = num(++i, s);
    else if (s === '--output') { if (++i >= argv.length) die(s + ' needs a value'); a.output = argv[i]; }
    else if (s === '--outdir') { if (++i >= argv.length) die(s + ' needs a value'); a.outdir = argv[i]; }
    else if (s === '--profile') { if (++i >= argv.length) die(s + ' needs a value'); a.profile = argv[i]; }
    else if (s === '--input') { if (++i >= argv.length) die(s + ' needs a value'); a.inputs.push(argv[i]); }
    else if (s.startsWith('--')) die('unknown option ' + s);
    else if (a.model === null) a.model = s;
    else a.inputs.push(s);
  }
  if (a.model === null) {
    die('usage: node bench/ort/run.js MODEL.onnx [INPUT.npy | NAME=INPUT.npy]... ' +
        '[--threads N] [--inter M] [--repeat R] [--warmup W] [--output OUT.npy | --outdir DIR]');
  }
  if (a.repeat < 1) die('--repeat must be at least 1');
  if (a.threads < 1) die('--threads must be at least 1');
  return a;
}

function quantile(sorted, q) {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos), hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

// The feeds for session from `NAME=FILE.npy` or bare FILE.npy specs (bare
// files feed the inputs in order); an unknown or missing input is fatal.
function readFeeds(ort, session, specs) {
  const feeds = {};
  specs.forEach((spec, k) => {
    let name, file;
    const eq = spec.indexOf('=');
    // NAME=FILE, unless the '=' belongs to a path (then the whole is a file).
    if (eq > 0 && !fs.existsSync(spec)) { name = spec.slice(0, eq); file = spec.slice(eq + 1); }
    else {
      if (k >= session.inputNames.length) die('more inputs given than the model has');
      name = session.inputNames[k]; file = spec;
    }
    if (!session.inputNames.includes(name))
      die('model has no input ' + name + ' (inputs: ' + session.inputNames.join(', ') + ')');
    const t = readNpy(file);
    feeds[name] = new ort.Tensor(t.type, t.data, t.dims);
  });
  const missing = session.inputNames.filter(n => !(n in feeds));
  if (missing.length) die('missing inputs: ' + missing.join(', '));
  return feeds;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const ort = loadOrt();
  const session = await ort.InferenceSession.create(args.model, {
    intraOpNumThreads: args.threads,
    interOpNumThreads: args.inter || 1,
    executionMode: args.inter ? 'parallel' : 'sequential',
    graphOptimizationLevel: 'all',
    ...(args.profile ? { enableProfiling: true, profileFilePrefix: args.profile } : {}),
  });
  const feeds = readFeeds(ort, session, args.inputs);

  let out = null;
  for (let i = 0; i < args.warmup; i++) out = await session.run(feeds);
  const times = new Float64Array(args.repeat), cpu = new Float64Array(args.repeat);
  for (let i = 0; i < args.repeat; i++) {
    const t0 = process.hrtime.bigint(), c0 = process.cpuUsage();
    out = await session.run(feeds);
    times[i] = Number(process.hrtime.bigint() - t0) / 1e6;
    const c = process.cpuUsage(c0); // every thread of the process, microseconds
    cpu[i] = (c.user + c.system) / 1e3;
  }
  const sorted = Array.from(times).sort((x, y) => x - y);
  const sortedCpu = Array.from(cpu).sort((x, y) => x - y);
  const r = (x) => Number(x.toPrecision(6));
  console.log(JSON.stringify({
    model: path.basename(args.model),
    threads: args.threads,
    repeat: args.repeat,
    median_ms: r(quantile(sorted, 0.5)),
    median_cpu_ms: r(quantile(sortedCpu, 0.5)),
    p10_ms: r(quantile(sorted, 0.1)),
    p90_ms: r(quantile(sorted, 0.9)),
  }));
  if (args.profile) session.endProfiling();
  if (args.output) writeNpy(args.output, out[session.outputNames[0]]);
  if (args.outdir) {
    fs.mkdirSync(args.outdir, { recursive: true });
    for (const n of session.outputNames)
      writeNpy(path.join(args.outdir, n.replace(/[^A-Za-z0-9._-]/g, '_') + '.npy'), out[n]);
  }
  if (typeof session.release === 'function') await session.release();
}

module.exports = { loadOrt, readNpy, readFeeds, quantile }; // for bench/ort/concurrent.js

if (require.main === module)
  main().catch(e => { process.stderr.write('run.js: ' + (e && e.stack || e) + '\n'); process.exit(1); });
