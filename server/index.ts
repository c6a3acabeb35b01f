/** Public surface of the HTTP layer. */
export { startServer, type ServerHandle } from './app.js';
