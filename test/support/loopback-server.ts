import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Starts the server on a free port of a loopback address (127.0.0.1 unless given: any of
 * 127.0.0.0/8 is this machine, and another one is another origin) and answers its origin.
 */
export async function listenOnLoopback(server: Server, host = '127.0.0.1'): Promise<string> {
	await new Promise<void>((resolve) => server.listen(0, host, resolve));
	return `http://${host}:${(server.address() as AddressInfo).port}`;
}

/** Stops the server, ending open connections too (held responses would keep it open). */
export async function closeServer(server: Server): Promise<void> {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
}
