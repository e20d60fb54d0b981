// Times one model with ONNX Runtime (npm onnxruntime-node) on the CPU.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//   node bench/ort_bench.js MODEL.onnx --input NAME=FILE.npy ... \
//        [--runs N] [--warmup W] [--threads T] [--output-dir DIR]
//        [--profile PREFIX]
//
// Loads MODEL with graphOptimizationLevel 'all', intraOpNumThreads T (default
// 1), interOpNumThreads 1 and sequential execution, runs W warm-up runs
// (default 1) and N timed runs (default 10; 0 runs once and times nothing),
// and prints one JSON line on stdout:
//   {"median_ms": M, "rss_mb": R, "runs": N, "threads": T, "load_ms": L,
//    "ort": "1.x"}
// (rss_mb: the process's peak resident memory, from /proc/self/status).
// With --output-dir, also writes each output of the last run as
// DIR/<output name>.npy. With --profile, ONNX Runtime's own profiler writes
// PREFIX_<date>.json (Chrome trace events; the JSON line gives its name as
// "profile"), for bench/profile_summary.py. Errors go to stderr with exit
// status 1.
'use strict';

const fs = require('fs');
const path = require('path');

function loadOrt() {
  try {
    return require(path.join(__dirname, 'node_modules', 'onnxruntime-node'));
  } catch (e) {
    return require('onnxruntime-node');
  }
}

// .npy dtypes we read and write, with their onnxruntime tensor types.
const DTYPES = {
  '<f4': ['float32', Float32Array],
  '<f8': ['float64', Float64Array],
  '<i8': ['int64', BigInt64Array],
  '<i4': ['int32', Int32Array],
  '<i2': ['int16', Int16Array],
  '|i1': ['int8', Int8Array],
  '|u1': ['uint8', Uint8Array],
  '|b1': ['bool', Uint8Array],
};

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.length < 10 || buf.toString('latin1', 0, 6) !== '\x93NUMPY')
    throw new Error(`${file}: not a .npy file`);
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12) + headerLen;
  const header = buf.toString('latin1', major === 1 ? 10 : 12, start);
  const descr = /'descr':\s*'([^']+)'/.exec(header);
  const fortran = /'fortran_order':\s*(True|False)/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shape)
    throw new Error(`${file}: cannot parse the header ${header.trim()}`);
  if (fortran[1] === 'True')
    throw new Error(`${file}: Fortran order is not supported`);
  const kind = DTYPES[descr[1]];
  if (!kind) throw new Error(`${file}: dtype ${descr[1]} is not supported`);
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s)
                   .map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  const Ctor = kind[1];
  const bytes = buf.subarray(start, start + count * Ctor.BYTES_PER_ELEMENT);
  // Copy into an aligned buffer of its own.
  const data = new Ctor(count);
  new Uint8Array(data.buffer).set(bytes);
  return {type: kind[0], data, dims};
}

function writeNpy(file, tensor) {
  const entry = Object.entries(DTYPES).find(([, v]) => v[0] === tensor.type);
  if (!entry) throw new Error(`cannot write a ${tensor.type} tensor as .npy`);
  const dims = tensor.dims.map(Number);
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header =
      `{'descr': '${entry[0]}', 'fortran_order': False, 'shape': ${shape}, }`;
  // Pad so that the data starts at a multiple of 64 bytes.
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  const data = tensor.data;
  fs.writeFileSync(file, Buffer.concat([
    head, Buffer.from(header, 'latin1'),
    Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  ]));
}

function parseArgs(argv) {
  const args = {
    inputs: [],
    runs: 10,
    warmup: 1,
    threads: 1,
    outputDir: null,
    profile: null
  };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--input') args.inputs.push(value());
    else if (a === '--runs') args.runs = parseInt(value(), 10);
    else if (a === '--warmup') args.warmup = parseInt(value(), 10);
    else if (a === '--threads') args.threads = parseInt(value(), 10);
    else if (a === '--output-dir') args.outputDir = value();
    else if (a === '--profile') args.profile = value();
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else if (args.model) throw new Error(`a second model: ${a}`);
    else args.model = a;
  }
  if (!args.model) throw new Error('no model given');
  if (!(args.threads >= 1)) throw new Error('--threads must be at least 1');
  if (!(args.runs >= 0) || !(args.warmup >= 0))
    throw new Error('--runs and --warmup must be non-negative');
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const ort = loadOrt();
  const feeds = {};
  for (const spec of args.inputs) {
    const eq = spec.indexOf('=');
    if (eq <= 0) throw new Error(`--input takes NAME=FILE, got '${spec}'`);
    const t = readNpy(spec.slice(eq + 1));
    feeds[spec.slice(0, eq)] = new ort.Tensor(t.type, t.data, t.dims);
  }
  const loadStart = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(args.model, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: args.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    enableProfiling: args.profile !== null,
    profileFilePrefix: args.profile || undefined,
  });
  const loadMs = Number(process.hrtime.bigint() - loadStart) / 1e6;
  const missing = session.inputNames.filter((n) => !(n in feeds));
  if (missing.length)
    throw new Error(`missing inputs: ${missing.join(', ')} (the model takes ` +
                    `${session.inputNames.join(', ')})`);

  let outputs = null;
  for (let i = 0; i < args.warmup; ++i) outputs = await session.run(feeds);
  const ms = [];
  for (let i = 0; i < args.runs; ++i) {
    const start = process.hrtime.bigint();
    outputs = await session.run(feeds);
    ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  if (!outputs) outputs = await session.run(feeds);
  let profile = null;
  if (args.profile !== null) {
    session.endProfiling();
    // ORT names the file PREFIX_<date>.json; take the newest such file.
    const dir = path.dirname(args.profile) || '.';
    const base = path.basename(args.profile) + '_';
    const files = fs.readdirSync(dir)
                      .filter((f) => f.startsWith(base) && f.endsWith('.json'))
                      .map((f) => path.join(dir, f));
    files.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
    profile = files.length ? files[0] : null;
  }
  ms.sort((a, b) => a - b);
  const n = ms.length;
  const median =
      n === 0 ? null : n % 2 ? ms[(n - 1) / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;

  if (args.outputDir) {
    fs.mkdirSync(args.outputDir, {recursive: true});
    for (const name of session.outputNames)
      writeNpy(path.join(args.outputDir, `${name}.npy`), outputs[name]);
  }
  // The peak resident memory of this process (VmHWM), not the rusage the
  // parent reads, which includes what the parent held when it forked.
  let rssMb = null;
  try {
    const m = /VmHWM:\s*(\d+)\s*kB/.exec(
        fs.readFileSync('/proc/self/status', 'latin1'));
    if (m) rssMb = Number(m[1]) / 1024;
  } catch (e) {
  }
  console.log(JSON.stringify({
    median_ms: median,
    rss_mb: rssMb,
    runs: n,
    threads: args.threads,
    load_ms: loadMs,
    ort: ort.env.versions.common,
    ...(profile ? {profile} : {}),
  }));
}

main().catch((e) => {
  console.error(`ort_bench: ${e && e.message ? e.message : e}`);
  process.exit(1);
});
