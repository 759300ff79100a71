#if os(Linux)
  internal import COpenSSL
  import Foundation
  import Glibc

  /// One TLS client session over a non-blocking socket: the handshake, reads and writes,
  /// each of which may ask to wait until the socket is readable or writable.
  /// Used on the transport's event-loop thread only.
  final class TLSStream {
    private let library: TLSLibrary
    private let ssl: TLSLibrary.Handle
    private var isShutDown = false

    init(library: TLSLibrary, ssl: TLSLibrary.Handle) {
      self.library = library
      self.ssl = ssl
    }

    deinit {
      library.free(ssl)
    }

    /// Advances the handshake: `.bytes(0)` when it is done. Any failure, an untrusted
    /// certificate or a name that does not match included, is `.unreachable(.tls)`.
    func handshake() -> IOResult {
      library.clearErrors()
      let result = library.connect(ssl)
      if result == 1 { return .bytes(0) }
      switch library.getError(ssl, result) {
      case SSL_ERROR_WANT_READ: return .wouldBlock(wantsWrite: false)
      case SSL_ERROR_WANT_WRITE: return .wouldBlock(wantsWrite: true)
      default: return .failed(.unreachable(.tls))
      }
    }

    /// Reads decrypted bytes into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
      library.clearErrors()
      let count = library.read(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
      if count > 0 { return .bytes(Int(count)) }
      return outcome(of: count)
    }

    /// Encrypts and writes as much of `bytes` as the socket takes now.
    func write(_ bytes: UnsafeRawBufferPointer) -> IOResult {
      guard !bytes.isEmpty else { return .bytes(0) }
      library.clearErrors()
      let count = library.write(ssl, bytes.baseAddress, Int32(clamping: bytes.count))
      if count > 0 { return .bytes(Int(count)) }
      return outcome(of: count)
    }

    /// Sends close_notify once, without waiting for the peer's (the socket is closed next).
    func shutDown() {
      guard !isShutDown else { return }
      isShutDown = true
      library.clearErrors()
      _ = library.shutdown(ssl)
    }

    private func outcome(of result: Int32) -> IOResult {
      let code = errno
      switch library.getError(ssl, result) {
      case SSL_ERROR_WANT_READ: return .wouldBlock(wantsWrite: false)
      case SSL_ERROR_WANT_WRITE: return .wouldBlock(wantsWrite: true)
      case SSL_ERROR_ZERO_RETURN: return .closed
      case SSL_ERROR_SYSCALL:
        return code == 0 ? .closed : .failed(SocketCalls.ioError(code))
      default:
        return .failed(.unreachable(.tls))
      }
    }
  }
#endif
