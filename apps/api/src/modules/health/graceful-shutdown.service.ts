import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import * as net from 'node:net';

/** Time given to the event loop to accept connections already queued by the kernel. */
const ACCEPT_BACKLOG_MS = 50;
/** How long a connection accepted before shutdown may take to send its request. */
const LINGER_MS = 1000;
/** Upper bound of the drain; main.ts has its own, longer, hard deadline. */
const DRAIN_MS = 12000;

/**
 * Graceful stop, run by Nest before it closes the HTTP server: stop accepting connections, let
 * connections that were already accepted deliver their request, and wait until every in-flight
 * request has answered. Node's server.close() alone would reset accepted connections whose request
 * had not been read yet. From the signal on (before Nest stops the background jobs, which release their
 * leases in their own destroy hooks), /api/health and /api/health/ready answer 503 so that a load
 * balancer stops routing (docs/decisions/0073-liveness-and-readiness.md).
 */
@Injectable()
export class GracefulShutdown implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('Shutdown');
  private active = 0;
  /** Sockets that have not started a request yet. */
  private readonly waiting = new Set<net.Socket>();
  private draining = false;
  /** SIGTERM/SIGINT received or the app is closing: readiness fails while requests are still served. */
  private stopping = false;
  private readonly onSignal = () => {
    this.stopping = true;
  };

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  get shuttingDown(): boolean {
    return this.stopping || this.draining;
  }

  private get server(): Server | undefined {
    return this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
  }

  onApplicationBootstrap(): void {
    // ahead of Nest's own listener, which starts the destroy hooks
    process.prependListener('SIGTERM', this.onSignal);
    process.prependListener('SIGINT', this.onSignal);
    const server = this.server;
    if (!server) return;
    server.on('connection', (socket: net.Socket) => {
      this.waiting.add(socket);
      socket.once('close', () => this.waiting.delete(socket));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.waiting.delete(req.socket);
      this.active++;
      res.once('close', () => this.active--);
      if (this.draining && !res.headersSent) res.setHeader('Connection', 'close');
    });
  }

  onModuleDestroy(): void {
    this.stopping = true;
    process.removeListener('SIGTERM', this.onSignal);
    process.removeListener('SIGINT', this.onSignal);
  }

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.draining = true;
    if (!server?.listening) return;
    // One more turn of the event loop accepts connections still in the listen backlog (closing would reset them).
    await new Promise((r) => setTimeout(r, ACCEPT_BACKLOG_MS));
    // Stop accepting, but unlike http.Server#close do not drop accepted connections yet.
    net.Server.prototype.close.call(server);
    const started = Date.now();
    const busy = () => this.active > 0 || (this.waiting.size > 0 && Date.now() - started < LINGER_MS);
    while (busy() && Date.now() - started < DRAIN_MS) await new Promise((r) => setTimeout(r, 20));
    if (this.active > 0) this.logger.warn(`${this.active} request(s) still running after ${DRAIN_MS} ms`);
  }
}
