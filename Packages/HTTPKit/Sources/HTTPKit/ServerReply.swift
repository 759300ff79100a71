/// What a server does with one request: answer (at once or trickling the body), never answer,
/// or reset the connection, after an optional delay. ``HTTPServer`` carries it out on sockets
/// and ``InMemoryTransport`` without them, with the same outcome for the client.
public struct ServerReply: Sendable {
  /// The act itself.
  public enum Action: Sendable {
    /// Sends `response`; with a `slowRate`, the head at once and then the body at that many
    /// bytes a second.
    case respond(ServerResponse, slowRate: Int?)
    /// Reads the request and never answers (the connection stays open until the client
    /// gives up or the server stops).
    case hang
    /// Closes the connection abruptly: the client sees a reset.
    case reset
  }

  /// Seconds to wait before acting.
  public var delay: Double
  /// What to do then.
  public var action: Action

  /// A reply: `action` after `delay` seconds.
  public init(delay: Double = 0, action: Action) {
    self.delay = delay
    self.action = action
  }

  /// `response` at once.
  public static func respond(_ response: ServerResponse) -> ServerReply {
    ServerReply(action: .respond(response, slowRate: nil))
  }
}
