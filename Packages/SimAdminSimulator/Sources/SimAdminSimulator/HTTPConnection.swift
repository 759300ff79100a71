/// One accepted client connection; lives on the event loop's thread only.
final class HTTPConnection {
  enum Phase {
    /// Waiting for (more of) a request.
    case reading
    /// A request is being answered (delayed, written or trickled).
    case answering
    /// The request will never be answered (the `hang` fault).
    case hung
  }

  let fd: Int32
  let deviceIndex: Int
  var phase = Phase.reading
  var input: [UInt8] = []
  var output: [UInt8] = []
  var outputOffset = 0
  var wantsWrite = false
  /// Body bytes still to trickle for the `slowBody` fault.
  var trickle: [UInt8] = []
  var trickleOffset = 0
  var keepAliveAfterResponse = true
  var isOpen = true
  /// When it was closed (uptime seconds), by either side.
  var closedAt: Double?
  /// A request on it has been received and not yet answered in full (or the connection
  /// closed): it counts in its device's requests in flight.
  var isInFlight = false

  init(fd: Int32, deviceIndex: Int) {
    self.fd = fd
    self.deviceIndex = deviceIndex
  }

  var hasPendingOutput: Bool { outputOffset < output.count }
  var isTrickling: Bool { trickleOffset < trickle.count }
}
