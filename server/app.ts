/**
 * uWebSockets.js application. Foundation slice: liveness only; routes grow in server/routes/.
 */
import uWS from 'uWebSockets.js';

export interface ServerHandle {
  readonly port: number;
  close(): void;
}

export const PRODUCT_VERSION = '1.6.7';

function commonHeaders(res: uWS.HttpResponse): void {
  const id = crypto.randomUUID();
  res.writeHeader('X-Service-Version', `strata-${PRODUCT_VERSION}`);
  res.writeHeader('X-Service-Build', 'OSS');
  res.writeHeader('X-Influxdb-Version', PRODUCT_VERSION);
  res.writeHeader('X-Influxdb-Build', 'OSS');
  res.writeHeader('Request-Id', id);
  res.writeHeader('X-Request-Id', id);
}

export function startServer(opts: { host: string; port: number }): Promise<ServerHandle> {
  const app = uWS.App();
  const ping = (res: uWS.HttpResponse) => {
    res.writeStatus('204 No Content');
    commonHeaders(res);
    res.endWithoutBody();
  };
  app.get('/ping', ping).head('/ping', ping);
  return new Promise((resolve, reject) => {
    app.listen(opts.host, opts.port, (socket) => {
      if (!socket) return reject(new Error(`cannot listen on ${opts.host}:${opts.port}`));
      resolve({ port: uWS.us_socket_local_port(socket), close: () => uWS.us_listen_socket_close(socket) });
    });
  });
}
