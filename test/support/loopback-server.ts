import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts the server on a free port of 127.0.0.1 and answers its origin (`http://127.0.0.1:<port>`). */
export async function listenOnLoopback(server: Server): Promise<string> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stops the server, ending open connections too (held responses would keep it open). */
export async function closeServer(server: Server): Promise<void> {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
}
