#!/usr/bin/env node
/**
 * `strata` command line: serve, config, version, and the file tools backup, restore, export,
 * import and inspect (each loads the configuration exactly as `serve` does). Errors print one
 * message and exit 1.
 */
import { cac } from 'cac';
import { StrataError } from '../engine/index.js';
import { SERVICE_VERSION } from '../server/index.js';
import { ConfigError, formatConfigToml } from './config.js';
import { loadProcessConfig, serve } from './serve.js';
import { registerToolCommands, ToolUsageError } from './tools.js';

class UsageError extends Error {}

interface GlobalOptions {
  config?: string;
}

const cli = cac('strata');
cli.option('-c, --config <file>', 'TOML configuration file (default: ./config.toml, optional)');

cli.command('serve', 'run the database server').action(async (options: GlobalOptions) => {
  await serve({ configPath: options.config });
  process.exit(0);
});

cli.command('config', 'print the effective configuration as TOML').action((options: GlobalOptions) => {
  const loaded = loadProcessConfig(options.config);
  for (const warning of loaded.warnings) process.stderr.write(`warning: ${warning}\n`);
  process.stdout.write(formatConfigToml(loaded.config));
});

registerToolCommands(cli);

cli.command('version', 'print the version').action(() => {
  process.stdout.write(`strata ${SERVICE_VERSION}\n`);
});

cli.help();

async function main(): Promise<void> {
  try {
    cli.parse(process.argv, { run: false });
    if (!cli.matchedCommand) {
      if (cli.options['help']) return; // cac printed it
      if (cli.args.length > 0) throw new UsageError(`unknown command "${cli.args.join(' ')}"; see strata --help`);
      cli.outputHelp();
      return;
    }
    await cli.runMatchedCommand();
  } catch (err) {
    const known =
      err instanceof ConfigError || err instanceof UsageError || err instanceof ToolUsageError || err instanceof StrataError || (err as Error).name === 'CACError';
    const message = known ? `strata: ${(err as Error).message}` : `strata: ${(err as Error).stack ?? String(err)}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  }
}

await main();
