import net from 'node:net';

/** A TCP relay to 127.0.0.1:`targetPort` that a test can make fall silent, as an unresponsive peer. */
export interface StallProxy {
  port: number;
  /** From now on nothing goes through, either way: requests hang, neither answered nor refused. */
  stall(): void;
  /** Traffic goes through again (what was sent meanwhile stays lost). */
  resume(): void;
  close(): Promise<void>;
}

/**
 * Starts the relay on 127.0.0.1 and a free port. Stalled, it keeps every connection open and
 * accepts new ones but forwards no byte: the peer behind it looks alive and never answers (a
 * blob store or PACS that hangs), which holds the server mid-call for a test to look at or kill.
 */
export async function startStallProxy(targetPort: number): Promise<StallProxy> {
  let stalled = false;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    track(client);
    track(upstream);
    client.on('data', (chunk) => {
      if (!stalled) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!stalled) client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    stall: () => (stalled = true),
    resume: () => (stalled = false),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
