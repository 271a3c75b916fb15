// The server's open connections, for a stop that resets none (server.mjs's shutdown): each connection and
// how many of its requests are being answered (0: an idle keep-alive), and the answers still being written.
import net from "node:net";

export function trackConnections(server) {
  const connections = new Map();
  const answering = new Set();
  let stopping = false;

  /** A connection with no request being answered ends the way a `Connection: close` answer ends it: FIN once written, never a reset. */
  const closeIfIdle = (socket) => {
    if (connections.get(socket) === 0) socket.destroySoon();
  };

  server.on("connection", (socket) => {
    connections.set(socket, 0);
    socket.once("close", () => connections.delete(socket));
  });

  return {
    /** One request being answered on its connection, until its answer is written (or the client left). */
    answer(req, res) {
      const socket = req.socket;
      connections.set(socket, (connections.get(socket) ?? 0) + 1);
      answering.add(res);
      res.once("close", () => {
        answering.delete(res);
        if (connections.has(socket)) connections.set(socket, connections.get(socket) - 1);
        if (stopping) closeIfIdle(socket);
      });
    },
    /**
     * Stops accepting, keeping the open connections: `http.Server#close` would destroy idle keep-alives at
     * once (Node >= 19), cutting off a request on its way, so the listener alone is closed (net.Server's
     * close; `onClosed` once the last connection is gone). Every answer still to be written says `Connection: close`.
     */
    stop(onClosed) {
      stopping = true;
      net.Server.prototype.close.call(server, onClosed);
      for (const res of answering) if (!res.headersSent) res.setHeader("Connection", "close");
    },
    /** Nothing in flight any more: every idle connection is closed (FIN). */
    closeIdle() {
      for (const socket of connections.keys()) closeIfIdle(socket);
    },
  };
}
