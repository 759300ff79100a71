import Essentials
import Foundation
import Testing

@testable import HTTPKit

/// The socket transport against scripted loopback servers: what the simulator cannot show
/// (connections counted, a pooled connection dropped by the server, chunked and
/// read-until-close bodies, IPv6).
@Suite("Socket transport")
struct SocketTransportTests {
  /// The requests these tests send, by the names SimAdmin's routes have.
  enum Route {
    case health, device, hubUnbind
    case smsSend(phoneNumber: String, content: String)
  }

  static func request(_ route: Route, _ origin: URL) throws -> HTTPRequest {
    var request: HTTPRequest
    switch route {
    case .health: request = .get("/api/health", origin)
    case .device: request = .get("/api/device", origin)
    case .hubUnbind:
      request = HTTPRequest(
        method: .post, url: origin.appendingPathComponent("api/hub/unbind"), headers: [:],
        body: nil, endpoint: "POST /api/hub/unbind")
    case .smsSend(let phoneNumber, let content):
      let body = try JSONSerialization.data(
        withJSONObject: ["phone_number": phoneNumber, "content": content], options: [.sortedKeys])
      request = HTTPRequest(
        method: .post, url: origin.appendingPathComponent("api/sms/send"),
        headers: ["Content-Type": "application/json"], body: body,
        endpoint: "POST /api/sms/send")
    }
    request.headers["Accept"] = "application/json"
    return request
  }

  static func send(
    _ transport: SocketTransport, _ route: Route, to origin: URL, timeout: Double = 10
  ) async -> Result<HTTPResponse, HTTPTransportError> {
    do throws(HTTPTransportError) {
      let request: HTTPRequest
      do {
        request = try Self.request(route, origin)
      } catch {
        return .failure(.unreachable(.other("\(error)")))
      }
      return .success(try await transport.send(request, timeout: timeout))
    } catch {
      return .failure(error)
    }
  }

  // MARK: - Keep-alive

  @Test("sequential requests to one origin reuse one keep-alive connection")
  func keepAliveReuse() async throws {
    let server = try ScriptedServer { _ in .send(ScriptedServer.response(body: #"{"n":1}"#)) }
    defer { server.stop() }
    let transport = SocketTransport()
    for _ in 0..<5 {
      let response = try await transport.send(Self.request(.health, server.origin), timeout: 10)
      #expect(response.status == 200)
      #expect(response.body == Data(#"{"n":1}"#.utf8))
    }
    #expect(server.connectionCount == 1)
    #expect(server.requests.map(\.indexOnConnection) == [1, 2, 3, 4, 5])
  }

  @Test("a pooled connection the server closed is retried once on a fresh one, for a GET")
  func staleConnectionRetriedForGet() async throws {
    let server = try ScriptedServer { request in
      request.connection == 1 && request.indexOnConnection == 2
        ? .close : .send(ScriptedServer.response())
    }
    defer { server.stop() }
    let transport = SocketTransport()
    _ = try await transport.send(Self.request(.health, server.origin), timeout: 10)
    let second = try await transport.send(Self.request(.device, server.origin), timeout: 10)
    #expect(second.status == 200)
    #expect(server.connectionCount == 2)
    #expect(
      server.requests.map(\.requestLine) == [
        "GET /api/health HTTP/1.1", "GET /api/device HTTP/1.1", "GET /api/device HTTP/1.1",
      ])
  }

  @Test("the retry happens once: a fresh connection that fails too is the answer")
  func retriedOnlyOnce() async throws {
    let server = try ScriptedServer { request in
      request.connection == 1 && request.indexOnConnection == 1
        ? .send(ScriptedServer.response()) : .close
    }
    defer { server.stop() }
    let transport = SocketTransport()
    _ = try await transport.send(Self.request(.health, server.origin), timeout: 10)
    let result = await Self.send(transport, .device, to: server.origin)
    #expect(result.failure == .unreachable(.reset))
    #expect(server.connectionCount == 2)
    #expect(server.requests.count == 3)
  }

  @Test("a POST on a pooled connection the server closes is never sent twice")
  func staleConnectionNotRetriedForPost() async throws {
    let server = try ScriptedServer { request in
      request.indexOnConnection == 2 ? .close : .send(ScriptedServer.response())
    }
    defer { server.stop() }
    let transport = SocketTransport()
    _ = try await transport.send(Self.request(.health, server.origin), timeout: 10)
    let result = await Self.send(transport, .hubUnbind, to: server.origin)
    #expect(result.failure == .unreachable(.reset))
    #expect(server.connectionCount == 1)
    #expect(server.requests.map(\.requestLine).last == "POST /api/hub/unbind HTTP/1.1")
    #expect(server.requests.count == 2)
  }

  @Test("a response with Connection: close is read, and the next request opens a new one")
  func connectionClose() async throws {
    let server = try ScriptedServer { _ in
      .sendAndClose(
        ScriptedServer.response(
          headers: [("Content-Type", "application/json"), ("Connection", "close")]))
    }
    defer { server.stop() }
    let transport = SocketTransport()
    for _ in 0..<2 {
      let response = try await transport.send(Self.request(.health, server.origin), timeout: 10)
      #expect(response.headers["connection"] == "close")
    }
    #expect(server.connectionCount == 2)
  }

  @Test("at most 8 connections per origin; the other requests wait for one and succeed")
  func poolLimit() async throws {
    let server = try ScriptedServer { _ in
      Thread.sleep(forTimeInterval: 0.1)
      return .send(ScriptedServer.response())
    }
    defer { server.stop() }
    let transport = SocketTransport()
    let statuses = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<20 {
        group.addTask {
          (try? await transport.send(Self.request(.health, server.origin), timeout: 20))?.status
            ?? 0
        }
      }
      return await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(statuses == Array(repeating: 200, count: 20))
    // Never more than the limit; more than one (the requests went out side by side).
    #expect((2...8).contains(server.connectionCount))
    #expect(server.mostOpenAtOnce <= 8)
  }

  @Test("cancelling a request still waiting for a connection ends it at once; it is never sent")
  func cancelWhileQueued() async throws {
    // The first answer is held until the queued request has been cancelled, so a slow,
    // loaded machine cannot let the first finish (and free the connection) too early.
    let release = DispatchSemaphore(value: 0)
    let server = try ScriptedServer { _ in
      _ = release.wait(timeout: .now() + 20)
      return .send(ScriptedServer.response())
    }
    defer { server.stop() }
    let transport = SocketTransport(maxConnectionsPerOrigin: 1)
    let first = Task { await Self.send(transport, .health, to: server.origin) }
    for _ in 0..<250 where server.requests.isEmpty {
      try await Task.sleep(for: .milliseconds(10))
    }
    let queued = Task { await Self.send(transport, .device, to: server.origin) }
    try await Task.sleep(for: .milliseconds(50))
    queued.cancel()
    #expect(await queued.value.failure == .cancelled)
    release.signal()
    #expect(await first.value.success?.status == 200)
    #expect(server.requests.map(\.requestLine) == ["GET /api/health HTTP/1.1"])
  }

  @Test("a request that times out closes its connection at once: its place is free again")
  func aTimedOutRequestClosesItsConnection() async throws {
    // The first request is never answered while the test runs (the server holds it 8 s);
    // the second, over the same one-connection pool, must not wait for that connection.
    // Before, the timed-out exchange's connection stayed open and kept its place, so the
    // second request waited for it and timed out too (and a device whose send timed out
    // kept running its handler: SimAdmin stores a send whose client is still connected).
    let hold = DispatchSemaphore(value: 0)
    let server = try ScriptedServer { request in
      if request.requestLine.hasPrefix("POST") {
        _ = hold.wait(timeout: .now() + 8)
        return .close
      }
      return .send(ScriptedServer.response())
    }
    defer {
      hold.signal()
      server.stop()
    }
    let transport = SocketTransport(maxConnectionsPerOrigin: 1)
    let first = await Self.send(
      transport, .smsSend(phoneNumber: "10086", content: "x"), to: server.origin, timeout: 0.5)
    #expect(first.failure == .timeout)
    let started = Date()
    let second = await Self.send(transport, .health, to: server.origin, timeout: 3)
    #expect(second.success?.status == 200)
    #expect(Date().timeIntervalSince(started) < 2.5)
    #expect(server.connectionCount == 2)
  }

  // MARK: - Bodies

  @Test("a chunked body (with extensions and trailers) is joined, and the connection reused")
  func chunkedBody() async throws {
    let head =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    let chunks = "7;note=x\r\n{\"a\":[1\r\n3\r\n,2]\r\n1\r\n}\r\n0\r\nX-Checksum: none\r\n\r\n"
    let server = try ScriptedServer { _ in .send(Array((head + chunks).utf8)) }
    defer { server.stop() }
    let transport = SocketTransport()
    for _ in 0..<2 {
      let response = try await transport.send(Self.request(.health, server.origin), timeout: 10)
      #expect(String(decoding: response.body, as: UTF8.self) == #"{"a":[1,2]}"#)
      #expect(response.headers["transfer-encoding"] == "chunked")
    }
    #expect(server.connectionCount == 1)
  }

  @Test("an HTTP/1.0 body without length is read until the server closes")
  func readUntilClose() async throws {
    let server = try ScriptedServer { _ in
      .sendAndClose(Array("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n[1,2,3]".utf8))
    }
    defer { server.stop() }
    let transport = SocketTransport()
    let response = try await transport.send(Self.request(.health, server.origin), timeout: 10)
    #expect(response.body == Data("[1,2,3]".utf8))
    _ = try await transport.send(Self.request(.health, server.origin), timeout: 10)
    #expect(server.connectionCount == 2)
  }

  @Test("a body read until close stops at the cap")
  func readUntilCloseCapped() async throws {
    let body = String(repeating: "x", count: 200 * 1024)
    let server = try ScriptedServer { _ in
      .sendAndClose(Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n\(body)".utf8))
    }
    defer { server.stop() }
    let transport = SocketTransport(maxResponseBytes: 64 * 1024)
    let result = await Self.send(transport, .health, to: server.origin)
    #expect(result.failure == .tooLarge(limit: 64 * 1024))
  }

  @Test("a response that is not HTTP → malformedResponse")
  func notHTTP() async throws {
    let server = try ScriptedServer { _ in .sendAndClose(Array("SSH-2.0-OpenSSH_9.2\r\n".utf8)) }
    defer { server.stop() }
    let result = await Self.send(SocketTransport(), .health, to: server.origin)
    guard case .malformedResponse = result.failure else {
      Issue.record("expected malformedResponse, got \(result)")
      return
    }
  }

  @Test("a 3xx is the response: never followed, nothing reaches the other origin")
  func redirectNotFollowed() async throws {
    let other = try ScriptedServer { _ in .send(ScriptedServer.response()) }
    defer { other.stop() }
    let location = other.origin.absoluteString + "/api/health"
    let server = try ScriptedServer { _ in
      .send(ScriptedServer.response(302, headers: [("Location", location)], body: ""))
    }
    defer { server.stop() }
    let response = try await SocketTransport().send(
      Self.request(.health, server.origin), timeout: 10)
    #expect(response.status == 302)
    #expect(response.headers["location"] == location)
    #expect(other.connectionCount == 0)
  }

  // MARK: - What is sent

  @Test("the request carries Host, the session's headers and Content-Length for a body")
  func requestHead() async throws {
    let server = try ScriptedServer { _ in .send(ScriptedServer.response()) }
    defer { server.stop() }
    var request = try Self.request(
      .smsSend(phoneNumber: "+8613800138000", content: "你好"), server.origin)
    request.headers["User-Agent"] = "MultiSimAdmin/test"
    _ = try await SocketTransport().send(request, timeout: 10)
    let received = try #require(server.requests.first)
    #expect(received.requestLine == "POST /api/sms/send HTTP/1.1")
    #expect(received.headers["host"] == "127.0.0.1:\(server.port)")
    #expect(received.headers["user-agent"] == "MultiSimAdmin/test")
    #expect(received.headers["content-type"] == "application/json")
    #expect(received.headers["content-length"] == String(request.body?.count ?? -1))
    #expect(Data(received.body) == request.body)
  }

  // MARK: - Addresses

  @Test(
    "an IPv6 literal origin (http://[::1]:port) works",
    .enabled(if: ScriptedServer.canBindIPv6Loopback, "IPv6 loopback ::1 is not available here"))
  func ipv6Literal() async throws {
    let server = try ScriptedServer(ipv6: true) { _ in .send(ScriptedServer.response()) }
    defer { server.stop() }
    #expect(server.origin.absoluteString == "http://[::1]:\(server.port)")
    let response = try await SocketTransport().send(
      Self.request(.health, server.origin), timeout: 10)
    #expect(response.status == 200)
    #expect(server.requests.first?.headers["host"] == "[::1]:\(server.port)")
  }

  @Test("a host name that does not resolve → unreachable(.dns)")
  func dnsFailure() async throws {
    let origin = try #require(URL(string: "http://nonexistent.invalid:3000"))
    let result = await Self.send(SocketTransport(), .health, to: origin)
    #expect(result.failure == .unreachable(.dns))
  }

  @Test("a host name is resolved off the loop: localhost reaches the loopback server")
  func hostName() async throws {
    let server = try ScriptedServer { _ in .send(ScriptedServer.response()) }
    defer { server.stop() }
    let origin = try #require(URL(string: "http://localhost:\(server.port)"))
    let response = try await SocketTransport().send(Self.request(.health, origin), timeout: 10)
    #expect(response.status == 200)
    #expect(server.requests.first?.headers["host"] == "localhost:\(server.port)")
  }

  #if os(Linux)
    @Test("https without libssl explains what to install")
    func missingTLSLibrary() {
      guard
        case .failure(.unreachable(.other(let detail))) = TLSLibrary.load(
          names: ["libssl-not-here.so.0"])
      else {
        Issue.record("expected a failure")
        return
      }
      #expect(detail.contains("libssl.so.3"))
      #expect(detail.contains("apt install libssl3"))
    }
  #endif

}

extension Result {
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }

  var success: Success? {
    if case .success(let value) = self { return value }
    return nil
  }
}
