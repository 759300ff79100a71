#if os(Linux)
  internal import COpenSSL
  import Foundation

  /// One `SSL_CTX` for all of a transport's TLS connections: peer verification on, the
  /// system's trusted certificates plus an optional extra CA file, TLS 1.2 at least.
  /// Used on the transport's event-loop thread only.
  final class TLSContext {
    let library: TLSLibrary
    private let context: TLSLibrary.Handle

    /// A context trusting the system's CAs and, when given, the PEM certificates in
    /// `additionalCertificates`.
    static func make(additionalCertificates: String?) -> Result<TLSContext, HTTPTransportError> {
      switch TLSLibrary.shared {
      case .failure(let error): return .failure(error)
      case .success(let library):
        library.clearErrors()
        guard let context = library.contextNew(library.clientMethod()) else {
          return .failure(.unreachable(.tls))
        }
        let made = TLSContext(library: library, context: context)
        library.contextSetVerify(context, SSL_VERIFY_PEER, nil)
        _ = library.contextSetDefaultVerifyPaths(context)
        if let additionalCertificates,
          library.contextLoadVerifyLocations(context, additionalCertificates, nil) != 1
        {
          return .failure(.unreachable(.tls))
        }
        _ = library.contextCtrl(
          context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil)
        _ = library.contextCtrl(
          context, SSL_CTRL_MODE, msa_SSL_MODE_PARTIAL_WRITE_AND_MOVING_BUFFER, nil)
        if library.version >= TLSLibrary.firstVersionIgnoringUnexpectedEOF,
          let setOptions = library.contextSetOptions
        {
          // A body read until the connection ends must not fail for a missing close_notify.
          _ = setOptions(context, msa_SSL_OP_IGNORE_UNEXPECTED_EOF)
        }
        return .success(made)
      }
    }

    private init(library: TLSLibrary, context: TLSLibrary.Handle) {
      self.library = library
      self.context = context
    }

    deinit {
      library.contextFree(context)
    }

    /// A client session on the connected socket `fd`, verifying that the peer's certificate
    /// is trusted and names `host` (a DNS name, sent as SNI, or an IP address literal).
    func makeStream(fd: Int32, host: String, isIPLiteral: Bool) -> TLSStream? {
      library.clearErrors()
      guard let ssl = library.new(context) else { return nil }
      let stream = TLSStream(library: library, ssl: ssl)
      guard library.setFD(ssl, fd) == 1, library.setHost(ssl, host) == 1 else { return nil }
      if !isIPLiteral {
        let named = host.withCString { name in
          library.ctrl(
            ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, Int(TLSEXT_NAMETYPE_host_name),
            UnsafeMutableRawPointer(mutating: name))
        }
        guard named == 1 else { return nil }
      }
      return stream
    }
  }
#endif
