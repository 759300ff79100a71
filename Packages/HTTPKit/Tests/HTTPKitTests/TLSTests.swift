import Foundation
import Testing

@testable import HTTPKit

/// https against a real `openssl s_server` on loopback, with a throwaway certificate.
@Suite(
  "TLS",
  .enabled(if: TLSTestServer.isAvailable, "needs the openssl command and libssl.so.3 (OpenSSL 3)"))
struct TLSTests {
  static func send(_ transport: SocketTransport, to origin: URL) async -> Result<
    HTTPResponse, HTTPTransportError
  > {
    do throws(HTTPTransportError) {
      let request = HTTPRequest.get("/api/health", origin)
      return .success(try await transport.send(request, timeout: 10))
    } catch {
      return .failure(error)
    }
  }

  @Test("a self-signed certificate nobody trusts is refused: unreachable(.tls)")
  func untrustedRefused() async throws {
    let server = try TLSTestServer(subjectAltName: "IP:127.0.0.1")
    defer { server.stop() }
    let result = await Self.send(SocketTransport(), to: server.origin)
    #expect(result.failure == .unreachable(.tls))
  }

  @Test("the same certificate, trusted through the extra CA file, carries the exchange")
  func trustedAccepted() async throws {
    let server = try TLSTestServer(subjectAltName: "IP:127.0.0.1")
    defer { server.stop() }
    let transport = SocketTransport(additionalTrustedCertificates: server.certificate)
    let response = try #require(await Self.send(transport, to: server.origin).success)
    #expect(response.status == 200)
    let page = String(decoding: response.body, as: UTF8.self)
    #expect(page.contains("Ciphers supported in s_server binary"))
    // s_server closes after each answer (HTTP/1.0): the next request needs a new handshake.
    let again = await Self.send(transport, to: server.origin)
    #expect(again.success?.status == 200)
  }

  @Test("a trusted certificate for another address is refused: unreachable(.tls)")
  func wrongNameRefused() async throws {
    let server = try TLSTestServer(subjectAltName: "IP:127.0.0.2")
    defer { server.stop() }
    let transport = SocketTransport(additionalTrustedCertificates: server.certificate)
    let result = await Self.send(transport, to: server.origin)
    #expect(result.failure == .unreachable(.tls))
  }
}
