// CPU-profiles the process it is preloaded into, from its start to its exit, for a process a benchmark starts
// itself (Node refuses `--cpu-prof` in NODE_OPTIONS, but takes `--require`):
//
//   BENCH_SEARCH_NODE_OPTIONS="--require $PWD/scripts/bench/profile-preload.cjs" PROFILE_DIR=/tmp/prof \
//     node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx scripts/bench/connector-index.ts --only http --rounds 1
//
// writes PROFILE_DIR/preload.<pid>.cpuprofile (1 ms samples) when the process exits normally (SIGTERM to
// `vela start` does); read it with scripts/bench/cpu-profile.ts and the window a benchmark line prints.
const fs = require('node:fs');
const inspector = require('node:inspector');
const path = require('node:path');

const dir = process.env.PROFILE_DIR || process.cwd();
const session = new inspector.Session();
session.connect();
session.post('Profiler.setSamplingInterval', { interval: 1000 });
session.post('Profiler.enable');
session.post('Profiler.start');
// A session of the process's own thread answers at once, so this still runs before the exit.
process.on('exit', () => {
  session.post('Profiler.stop', (error, result) => {
    if (error) return;
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `preload.${process.pid}.cpuprofile`), JSON.stringify(result.profile));
  });
});
