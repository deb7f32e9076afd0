import type { Tracing, TracingOptions } from './tracing';
import { tracingWanted } from './settings';

/**
 * Imported first by main.ts, for its effect: when the environment turns traces on, the SDK starts here, before the
 * server's modules are required, so that the instrumentations can patch `http` and `pg` as they load. When off,
 * nothing of OpenTelemetry is loaded and nothing is patched.
 */
function start(): Tracing | undefined {
  if (!tracingWanted(process.env)) return undefined;
  try {
    // Required only now: loading the SDK is what traces cost.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { startTracing } = require('./tracing') as {
      startTracing: (options?: TracingOptions) => Tracing;
    };
    return startTracing();
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

/** The SDK when traces are on, for main.ts to flush when the server stops. */
export const tracing = start();
