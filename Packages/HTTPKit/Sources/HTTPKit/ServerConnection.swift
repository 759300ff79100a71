/// One accepted connection of an ``HTTPServer``; lives on the event loop's thread only.
final class ServerConnection {
  enum Phase {
    /// Waiting for (more of) a request.
    case reading
    /// A request is being answered (delayed, written or trickled).
    case answering
    /// The request will never be answered (``ServerReply/Action/hang``).
    case hung
  }

  let fd: Int32
  /// The tag of the listener that accepted it.
  let tag: Int
  var phase = Phase.reading
  var input: [UInt8] = []
  var output: [UInt8] = []
  var outputOffset = 0
  var wantsWrite = false
  /// Body bytes still to trickle (a reply with a `slowRate`).
  var trickle: [UInt8] = []
  var trickleOffset = 0
  var keepAliveAfterResponse = true
  var isOpen = true
  /// A request on it has been received and not yet answered in full (or the connection
  /// closed): it counts in its tag's requests in flight.
  var isInFlight = false

  init(fd: Int32, tag: Int) {
    self.fd = fd
    self.tag = tag
  }

  var hasPendingOutput: Bool { outputOffset < output.count }
  var isTrickling: Bool { trickleOffset < trickle.count }
}
