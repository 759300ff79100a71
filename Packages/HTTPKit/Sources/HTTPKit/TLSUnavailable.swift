#if !os(Linux)
  /// Apple platforms reach `https` devices through URLSession (``HTTPTransports/standard``);
  /// there the socket transport has no TLS of its own and refuses an `https` origin with a
  /// reason instead of loading OpenSSL.
  struct TLSLibrary: Sendable {
    static let shared: Result<TLSLibrary, HTTPTransportError> = load(names: [])

    static func load(names: [String]) -> Result<TLSLibrary, HTTPTransportError> {
      .failure(
        .unreachable(
          .other(HTTPKitStrings.text("tls.notInThisBuild", .english))))
    }
  }

  /// Never made: ``make(additionalCertificates:)`` always fails here.
  final class TLSContext {
    static func make(additionalCertificates: String?) -> Result<TLSContext, HTTPTransportError> {
      TLSLibrary.shared.map { _ in TLSContext() }
    }

    func makeStream(fd: Int32, host: String, isIPLiteral: Bool) -> TLSStream? { nil }
  }

  /// Never made: ``TLSContext/makeStream(fd:host:isIPLiteral:)`` returns `nil` here.
  final class TLSStream {
    func handshake() -> IOResult { .failed(.unreachable(.tls)) }
    func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
      .failed(.unreachable(.tls))
    }
    func write(_ bytes: UnsafeRawBufferPointer) -> IOResult { .failed(.unreachable(.tls)) }
    func shutDown() {}
  }
#endif
