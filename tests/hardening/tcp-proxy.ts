import net from "node:net";

/**
 * A TCP proxy in front of a server (PostgreSQL in the fault suite) that a test can cut and restore:
 * `cut()` drops every open connection and refuses new ones, as a stopped database does; `restore()`
 * accepts again on the same port.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s));
          s.on("error", () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });

  await listen();
  return {
    get port() {
      return port;
    },
    /** Drops every connection and refuses new ones until `restore()`. */
    async cut() {
      const closing = server;
      server = null;
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    async restore() {
      if (!server) await listen();
    },
    async stop() {
      await this.cut();
    },
  };
}
