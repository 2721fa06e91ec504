/** The monitor's options (--metrics-port, --metrics-host): off unless a port is given. */

export const DEFAULT_METRICS_HOST = '127.0.0.1';
