/// The connections of one origin: how many are open, which are idle, and the requests
/// waiting for one. Used on the event loop's thread only.
final class OriginPool {
  /// Connections counted against the per-origin limit: resolving, connecting, busy or idle.
  var openCount = 0
  /// Idle keep-alive connections, the most recently used last.
  var idle: [ClientConnection] = []
  /// Requests waiting for a connection, oldest first.
  var waiting = FIFO<Exchange>()

  /// Whether the pool holds nothing and can be forgotten.
  var isUnused: Bool { openCount == 0 && waiting.isEmpty }

  /// Takes the most recently used idle connection, if any.
  func takeIdle() -> ClientConnection? {
    idle.popLast()
  }

  /// Forgets `connection` as idle (it is being closed).
  func removeIdle(_ connection: ClientConnection) {
    if let index = idle.firstIndex(where: { $0 === connection }) {
      idle.remove(at: index)
    }
  }
}
