#!/usr/bin/env node
/** `strata` command line: serve, backup, restore, config. */
import { cac } from 'cac';
import { startServer } from '../server/index.js';

const cli = cac('strata');
cli
  .command('serve', 'run the database server')
  .option('-c, --config <file>', 'TOML configuration file', { default: './config.toml' })
  .action(async () => {
    const port = Number(process.env['SERVICE__SERVER__PORT'] ?? 8086);
    const host = process.env['SERVICE__SERVER__BIND_ADDRESS'] ?? '0.0.0.0';
    const server = await startServer({ host, port });
    process.stderr.write(`strata listening on ${host}:${server.port}\n`);
    const stop = () => {
      server.close();
      process.exit(0);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
cli.help();
cli.parse();
