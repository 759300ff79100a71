import Foundation
import Testing

@testable import HTTPKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Transport errors")
struct TransportErrorTests {
  #if canImport(Darwin)
    @Test(
      "URLSession's errors map to unreachable reasons",
      arguments: [
        (URLError.Code.timedOut, HTTPTransportError.timeout),
        (.cannotConnectToHost, .unreachable(.refused)),
        (.cannotFindHost, .unreachable(.dns)),
        (.dnsLookupFailed, .unreachable(.dns)),
        (.secureConnectionFailed, .unreachable(.tls)),
        (.serverCertificateUntrusted, .unreachable(.tls)),
        (.networkConnectionLost, .unreachable(.reset)),
        (.cancelled, .cancelled),
      ])
    func transportErrors(_ code: URLError.Code, _ expected: HTTPTransportError) {
      #expect(TransportRelay.map(URLError(code)) == expected)
    }
  #endif

  @Test(
    "failed connects map to unreachable reasons",
    arguments: [
      (ECONNREFUSED, HTTPTransportError.unreachable(.refused)),
      (ECONNRESET, .unreachable(.reset)),
      (ETIMEDOUT, .timeout),
    ])
  func connectErrors(_ code: Int32, _ expected: HTTPTransportError) {
    #expect(SocketCalls.connectError(code) == expected)
  }

  @Test("a connection that breaks during the exchange is a reset")
  func exchangeErrors() {
    for code in [ECONNRESET, EPIPE, ECONNABORTED, ENOTCONN] {
      #expect(SocketCalls.ioError(code) == .unreachable(.reset))
    }
  }

  @Test("any other socket error keeps the system's text")
  func otherSocketError() {
    guard case .unreachable(.other(let text)) = SocketCalls.connectError(ENETUNREACH) else {
      Issue.record("expected .other")
      return
    }
    #expect(!text.isEmpty)
  }

  @Test("running out of descriptors or memory is this computer's failure, not the server's")
  func localResources() {
    for code in [EMFILE, ENFILE, ENOMEM, ENOBUFS] {
      let error = SocketCalls.connectError(code)
      #expect(error == .localResource(SocketCalls.text(code)))
      #expect(error.isLocal)
      #expect(SocketCalls.ioError(code).isLocal)
    }
    #expect(!SocketCalls.connectError(ECONNREFUSED).isLocal)
  }

  @Test("the catalogue has no problems")
  func catalogue() {
    #expect(HTTPKitStrings.catalogue.problems().isEmpty)
  }
}
