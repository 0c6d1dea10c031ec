import { unreachable } from '../../../../shared/model/config.js';
import type { TransportEntry } from '../../../../shared/model/config.js';
import type { ConnectionOptions } from '../connection-options.js';
import { HttpServerTransport } from '../http/http-server-transport.js';
import { StdioServerTransport } from '../stdio/stdio-server-transport.js';
import type { ServerTransport, TransportEvents } from './server-transport.js';

/** The transport for an entry's kind: the one place a new kind of transport is added. */
export function createTransport(
  name: string,
  entry: TransportEntry,
  options: ConnectionOptions,
  events: TransportEvents,
): ServerTransport {
  switch (entry.kind) {
    case 'stdio':
      return new StdioServerTransport(name, entry.config, options);
    case 'http':
      return new HttpServerTransport(name, entry.config, options, events);
    default:
      return unreachable(entry);
  }
}
