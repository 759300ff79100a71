import Essentials
import Foundation
import Testing

@testable import HTTPKit

/// The in-memory transport against a real ``HTTPServer``: what a client gets through it is what
/// it gets over a loopback socket, faults included.
@Suite("In-memory transport")
struct InMemoryTransportTests {
  /// A running server with one listener (tag 0) whose replies `reply` decides; every request
  /// it received is kept.
  final class Served: Sendable {
    let server: HTTPServer
    let port: Int
    let received = Locked<[ServerRequest]>([])

    init(_ reply: @escaping @Sendable (ServerRequest) -> ServerReply?) throws {
      let received = received
      server = try HTTPServer { request, _ in
        received.withLock { $0.append(request) }
        return reply(request)
      }
      port = try server.openListener(tag: 0, port: 0)
      server.loop.start()
    }

    var origin: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    func stop() {
      server.loop.shutdown { [server] in server.closeAll() }
    }
  }

  static func json(_ text: String) -> ServerResponse {
    ServerResponse(
      status: 200, headers: [("content-type", "application/json"), ("x-answer", "42")],
      body: Array(text.utf8))
  }

  static func send(
    _ transport: some HTTPTransport, _ request: HTTPRequest, timeout: Double = 10
  ) async -> Result<HTTPResponse, HTTPTransportError> {
    do throws(HTTPTransportError) {
      return .success(try await transport.send(request, timeout: timeout))
    } catch {
      return .failure(error)
    }
  }

  static func post(_ path: String, _ origin: URL, body: Data) -> HTTPRequest {
    HTTPRequest(
      method: .post, url: origin.appendingPathComponent(String(path.dropFirst())),
      headers: ["Content-Type": "application/json", "Cookie": "a=1"], body: body,
      endpoint: "POST \(path)")
  }

  // MARK: - The same as over a socket

  @Test("a response reads the same as over a socket: status, headers and body")
  func sameResponse() async throws {
    let served = try Served { _ in .respond(Self.json(#"{"status":"ok","data":[1,2]}"#)) }
    defer { served.stop() }
    let request = HTTPRequest.get("/api/sms/list?limit=5", served.origin)
    let overSocket = try await SocketTransport().send(request, timeout: 10)
    let inMemory = try await InMemoryTransport(server: served.server).send(request, timeout: 10)
    #expect(inMemory == overSocket)
    #expect(inMemory.headers["x-answer"] == "42")
    #expect(inMemory.headers["content-length"] == "28")
  }

  @Test("the server receives the same request: target, headers and body")
  func sameRequest() async throws {
    let served = try Served { _ in .respond(Self.json("{}")) }
    defer { served.stop() }
    var request = Self.post("/api/sms/send", served.origin, body: Data(#"{"to":"+86 1"}"#.utf8))
    request.headers["User-Agent"] = "MultiSimAdmin/test"
    request.headers["X-Bad"] = "a\r\nInjected: 1"
    _ = try await SocketTransport().send(request, timeout: 10)
    _ = try await InMemoryTransport(server: served.server).send(request, timeout: 10)
    let received = served.received.current
    try #require(received.count == 2)
    #expect(received[1].method == received[0].method)
    #expect(received[1].target == received[0].target)
    #expect(received[1].headers == received[0].headers)
    #expect(received[1].body == received[0].body)
    #expect(received[1].headers["host"] == "127.0.0.1:\(served.port)")
    #expect(received[1].headers["x-bad"] == nil)
  }

  @Test("a request the server's parser refuses gets the same answer (413 for a large body)")
  func refusedRequest() async throws {
    let served = try Served { _ in .respond(Self.json("{}")) }
    defer { served.stop() }
    let request = Self.post("/api/sms/send", served.origin, body: Data(count: 3 * 1024 * 1024))
    let overSocket = try await SocketTransport().send(request, timeout: 10)
    let inMemory = try await InMemoryTransport(server: served.server).send(request, timeout: 10)
    #expect(inMemory.status == 413)
    #expect(inMemory == overSocket)
    #expect(served.received.current.isEmpty)
  }

  // MARK: - Faults

  @Test("a listener taken down refuses, as its bound port does over a socket")
  func downRefuses() async throws {
    let served = try Served { _ in .respond(Self.json("{}")) }
    defer { served.stop() }
    _ = served.server.loop.run { [server = served.server, port = served.port] in
      server.takeDown(tag: 0, port: port)
    }
    let request = HTTPRequest.get("/api/health", served.origin)
    let result = await Self.send(InMemoryTransport(server: served.server), request)
    #expect(result.failure == .unreachable(.refused))
    #expect(await Self.send(SocketTransport(), request).failure == .unreachable(.refused))
    #expect(served.received.current.isEmpty)
  }

  @Test("a delay is waited out; one past the deadline ends at the timeout")
  func delay() async throws {
    let served = try Served { _ in
      ServerReply(delay: 0.3, action: .respond(Self.json("{}"), slowRate: nil))
    }
    defer { served.stop() }
    let transport = InMemoryTransport(server: served.server)
    let request = HTTPRequest.get("/api/health", served.origin)
    let start = ContinuousClock.now
    #expect(await Self.send(transport, request).success?.status == 200)
    #expect(ContinuousClock.now - start >= .milliseconds(300))
    #expect(await Self.send(transport, request, timeout: 0.1).failure == .timeout)
  }

  @Test("a deferred answer comes when the pending is answered, over a socket and in memory")
  func deferredAnswer() async throws {
    let served = try Served { _ in
      var response = ServerResponse(status: 200)
      response.deferredToken = 7
      return .respond(response)
    }
    defer { served.stop() }
    let held = Locked<[ServerPending]>([])
    served.server.onPending { pending in
      held.withLock { $0.append(pending) }
      // The answer comes a little later, from another thread.
      DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
        pending.answer(Self.json(#"{"later":true}"#))
      }
    }
    let request = HTTPRequest.get("/api/sms/send", served.origin)
    for transport in [
      InMemoryTransport(server: served.server) as any HTTPTransport, SocketTransport(),
    ] {
      let start = ContinuousClock.now
      let result = await Self.send(transport, request)
      #expect(result.success?.body == Data(#"{"later":true}"#.utf8))
      #expect(ContinuousClock.now - start >= .milliseconds(200))
    }
    #expect(held.withLock { $0.map(\.token) } == [7, 7])
  }

  @Test("a deferred answer never given ends at the deadline, and the pending stops waiting")
  func deferredTimeout() async throws {
    let served = try Served { _ in
      var response = ServerResponse(status: 200)
      response.deferredToken = 1
      return .respond(response)
    }
    defer { served.stop() }
    let held = Locked<ServerPending?>(nil)
    served.server.onPending { pending in held.withLock { $0 = pending } }
    let result = await Self.send(
      InMemoryTransport(server: served.server), .get("/api/sms/send", served.origin),
      timeout: 0.3)
    #expect(result.failure == .timeout)
    let pending = try #require(held.withLock { $0 })
    #expect(!pending.isWaiting)
    pending.answer(Self.json("{}"))  // too late: nothing happens
  }

  @Test("a hang runs into the caller's deadline, not sooner")
  func hang() async throws {
    let served = try Served { _ in ServerReply(action: .hang) }
    defer { served.stop() }
    let start = ContinuousClock.now
    let result = await Self.send(
      InMemoryTransport(server: served.server), .get("/api/health", served.origin), timeout: 0.3)
    #expect(result.failure == .timeout)
    #expect(ContinuousClock.now - start >= .milliseconds(300))
  }

  @Test("a reset is unreachable(.reset)")
  func reset() async throws {
    let served = try Served { _ in ServerReply(action: .reset) }
    defer { served.stop() }
    let request = HTTPRequest.get("/api/health", served.origin)
    #expect(
      await Self.send(InMemoryTransport(server: served.server), request).failure
        == .unreachable(.reset))
    #expect(await Self.send(SocketTransport(), request).failure == .unreachable(.reset))
  }

  @Test("a body over the cap is tooLarge, as over a socket")
  func oversized() async throws {
    let served = try Served { _ in .respond(Self.json(String(repeating: "x", count: 70_000))) }
    defer { served.stop() }
    let request = HTTPRequest.get("/api/device", served.origin)
    let inMemory = InMemoryTransport(server: served.server, maxResponseBytes: 64 * 1024)
    #expect(await Self.send(inMemory, request).failure == .tooLarge(limit: 64 * 1024))
    let socket = SocketTransport(maxResponseBytes: 64 * 1024)
    #expect(await Self.send(socket, request).failure == .tooLarge(limit: 64 * 1024))
  }

  @Test("a trickled body takes as long as the server would take; past the deadline, a timeout")
  func trickle() async throws {
    let served = try Served { _ in
      ServerReply(action: .respond(Self.json(String(repeating: "x", count: 1000)), slowRate: 4000))
    }
    defer { served.stop() }
    let transport = InMemoryTransport(server: served.server)
    let request = HTTPRequest.get("/api/device", served.origin)
    let start = ContinuousClock.now
    #expect(await Self.send(transport, request).success?.body.count == 1000)
    #expect(ContinuousClock.now - start >= .milliseconds(250))
    #expect(await Self.send(transport, request, timeout: 0.1).failure == .timeout)
  }

  @Test("cancelling the caller ends a waiting request at once with .cancelled")
  func cancel() async throws {
    let served = try Served { _ in ServerReply(action: .hang) }
    defer { served.stop() }
    let transport = InMemoryTransport(server: served.server)
    let request = HTTPRequest.get("/api/health", served.origin)
    let task = Task { await Self.send(transport, request, timeout: 30) }
    try await Task.sleep(for: .milliseconds(50))
    let start = ContinuousClock.now
    task.cancel()
    #expect(await task.value.failure == .cancelled)
    #expect(ContinuousClock.now - start < .seconds(5))
  }

  // MARK: - Other origins and counting

  @Test("an origin the server does not hold goes to the fallback, or is refused without one")
  func otherOrigins() async throws {
    let served = try Served { _ in .respond(Self.json(#"{"from":"memory"}"#)) }
    defer { served.stop() }
    let other = try Served { _ in .respond(Self.json(#"{"from":"socket"}"#)) }
    defer { other.stop() }
    let request = HTTPRequest.get("/api/health", other.origin)
    let alone = InMemoryTransport(server: served.server)
    #expect(await Self.send(alone, request).failure == .unreachable(.refused))
    let withFallback = InMemoryTransport(server: served.server, fallback: SocketTransport())
    let answer = try await withFallback.send(request, timeout: 10)
    #expect(answer.body == Data(#"{"from":"socket"}"#.utf8))
    #expect(other.received.current.count == 1)
    #expect(served.received.current.isEmpty)
    let https = try #require(URL(string: "https://127.0.0.1:\(served.port)"))
    #expect(
      await Self.send(alone, .get("/api/health", https)).failure == .unreachable(.refused))
  }

  @Test("requests in flight count until answered, as over sockets")
  func inFlight() async throws {
    let served = try Served { _ in
      ServerReply(delay: 0.2, action: .respond(Self.json("{}"), slowRate: nil))
    }
    defer { served.stop() }
    let transport = InMemoryTransport(server: served.server)
    let request = HTTPRequest.get("/api/health", served.origin)
    served.server.resetPeakTagsInFlight()
    #expect(served.server.peakTagsInFlight == 0)
    async let first = Self.send(transport, request)
    async let second = Self.send(transport, request)
    _ = await (first, second)
    #expect(served.server.peakTagsInFlight == 1)
    #expect(served.server.flights.isIdle)
  }
}
