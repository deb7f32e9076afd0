// Loaded into the service by the soak (`node --require bench/soak-probe.js dist/main.js`): measures the event
// loop's delay over the whole run and writes it, with the resident memory, to SOAK_PROBE_FILE every second.
'use strict';
const { renameSync, writeFileSync } = require('node:fs');
const { monitorEventLoopDelay } = require('node:perf_hooks');

const file = process.env.SOAK_PROBE_FILE;
if (file !== undefined && file !== '') {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const write = () => {
    const ms = (nanoseconds) => Math.round(nanoseconds / 1e4) / 100;
    const report = {
      at: Date.now(),
      rssMb: Math.round(process.memoryUsage.rss() / 1024 / 1024),
      delay: {
        p50: ms(delay.percentile(50)),
        p99: ms(delay.percentile(99)),
        max: ms(delay.max),
        mean: ms(delay.mean),
      },
    };
    writeFileSync(`${file}.tmp`, JSON.stringify(report));
    renameSync(`${file}.tmp`, file);
  };
  setInterval(write, 1000).unref();
  // The soak sends SIGUSR2 when its load begins: start-up (migrations, the first connections) is not measured.
  process.on('SIGUSR2', () => delay.reset());
  process.on('exit', write);
}
