/** A configuration the node refuses to start with; the message names the option and what it accepts. */
export class ConfigError extends Error {}

/** `--help` and `--print-config`: text to print, then exit 0. */
export class ConfigExit extends Error {}
