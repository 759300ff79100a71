import Essentials
import EssentialsTesting
import Foundation
import SimAdminSimulator
import Testing

@testable import SimAdminClient

@Suite("Session against the simulator")
struct SessionIntegrationTests {
  static let password = "Sim-Admin-42"

  /// Calls every route once and checks each answer against the simulator's own state.
  func exerciseEveryRoute(_ session: SimAdminSession, device: SimulatedDevice) async throws {
    let health = try await session.health()
    #expect(health.version == "1.1.10")
    #expect(health.status == "ok")
    let auth = try await session.authStatus()
    let loggedIn = await session.hasSession
    #expect(auth.authenticated == (device.profile.password == nil || loggedIn))
    let info = try await session.device()
    #expect(!info.model.isEmpty)
    let sim = try await session.sim()
    #expect(sim.present)
    let network = try await session.network()
    #expect(!network.registrationStatus.isEmpty)
    _ = try await session.cells()
    let stats = try await session.stats()
    #expect(stats.memory != nil)
    let cpu = try await session.cpu()
    #expect((cpu.coreCount ?? 0) > 0)
    let connectivity = try await session.connectivity()
    #expect(connectivity.ipv4 != nil)
    _ = try await session.dataState()
    _ = try await session.roaming()
    _ = try await session.airplaneMode()
    _ = try await session.hub()

    let expected = device.messages()
    let page = try await session.smsList(limit: 10, offset: 0)
    #expect(page.map(\.id) == expected.prefix(10).map(\.id))
    #expect(page.allSatisfy { $0.date != nil })
    let second = try await session.smsList(limit: 10, offset: 10)
    #expect(second.map(\.id) == expected.dropFirst(10).prefix(10).map(\.id))
    let incoming = try await session.smsList(limit: 1000, offset: 0, direction: .incoming)
    #expect(incoming.allSatisfy { $0.isIncoming })
    #expect(incoming.count == expected.filter { $0.direction == "incoming" }.count)

    let stats2 = try await session.smsStats()
    #expect(stats2.total == Int64(expected.count))

    let peer = "+8613800138000"
    _ = device.receiveSMS(from: peer, content: "验证码 123456")
    let conversation = try await session.smsConversation(phoneNumber: peer, limit: 50)
    #expect(!conversation.isEmpty)
    #expect(conversation.allSatisfy { $0.phoneNumber == peer })

    let sent = try await session.smsSend(phoneNumber: "10086", content: "CXLL")
    #expect(!sent.path.isEmpty)
    #expect(device.messages().contains { $0.direction == "outgoing" && $0.content == "CXLL" })

    let newest = try #require(device.messages().first)
    let deletedOne = try await session.smsDeleteMessage(id: newest.id)
    #expect(deletedOne.deleted == 1)
    #expect(!device.messages().contains { $0.id == newest.id })

    _ = device.receiveSMS(from: peer, content: "again")
    let deletedConversation = try await session.smsDeleteConversation(phoneNumber: peer)
    #expect(deletedConversation.deleted >= 1)
    #expect(!device.messages().contains { $0.phoneNumber == peer })

    let two = device.messages().prefix(2).map(\.id)
    let batch = try await session.smsBatchDelete(ids: two)
    #expect(batch.deleted == Int64(two.count))

    let cleared = try await session.smsClear()
    #expect(cleared.deleted > 0)
    #expect(device.messages().isEmpty)

    _ = try await session.hubUnbind()
  }

  @Test("every route works with password protection off, with the right headers")
  func everyRouteAuthOff() async throws {
    try await withFleet([DeviceProfile(name: "open-1")]) { fleet in
      let device = fleet.devices[0]
      let session = makeSession(device)
      try await exerciseEveryRoute(session, device: device)
      let loggedInOpen = await session.hasSession
      #expect(!loggedInOpen)
      let requests = device.requests()
      #expect(requests.count >= 24)
      for request in requests {
        #expect(request.headers["accept"] == "application/json")
        #expect(request.headers["user-agent"] == "MultiSimAdmin/9.9-test")
        #expect(request.headers["cookie"] == nil)
      }
      let conversation = try #require(
        requests.first { $0.target.hasPrefix("/api/sms/conversation?") })
      #expect(conversation.target == "/api/sms/conversation?phone_number=%2B8613800138000&limit=50")
      #expect(requests.contains { $0.target == "/api/sms/conversation/%2B8613800138000" })
    }
  }

  @Test("every route works with protection on: the stored password logs in once, on demand")
  func everyRouteAuthOn() async throws {
    try await withFleet([DeviceProfile(name: "locked-1", password: Self.password)]) { fleet in
      let device = fleet.devices[0]
      let handler = InMemoryLogHandler()
      let logger = Logger(label: "test", handler: handler, logLevel: .trace)
      let session = makeSession(device, password: Self.password, logger: logger)
      try await exerciseEveryRoute(session, device: device)
      let loggedInLocked = await session.hasSession
      #expect(loggedInLocked)
      let requests = device.requests()
      let logins = requests.filter { $0.target == "/api/auth/login" }
      #expect(logins.count == 1)
      let cookieHeader = try #require(requests.last?.headers["cookie"])
      #expect(cookieHeader.hasPrefix("simadmin_session="))
      let token = String(cookieHeader.dropFirst("simadmin_session=".count))
      #expect(!token.isEmpty)
      #expect(!handler.records.isEmpty)
      for record in handler.records {
        #expect(!record.line.contains(token))
        #expect(!record.line.contains(Self.password))
        // Never a body: no SMS text sent or received appears.
        #expect(!record.line.contains("CXLL"))
      }
      // Each device request is one line: method, route template, status, bytes, milliseconds.
      let list = try #require(
        handler.records.first {
          $0.metadata["route"] == "/api/sms/list" && $0.metadata["status"] == "200"
        })
      #expect(list.metadata["method"] == "GET")
      #expect(Int(list.metadata["bytes"] ?? "") ?? 0 > 20)
      #expect(Int(list.metadata["ms"] ?? "") != nil)
      #expect(list.metadata["instance"] == "locked-1")
      #expect(handler.records.contains { $0.metadata["status"] == "401" })

      try await session.logout()
      let loggedInAfterLogout = await session.hasSession
      #expect(!loggedInAfterLogout)
      #expect(device.activeSessionCount == 0)
      _ = try await session.device()
      #expect(device.requests().filter { $0.target == "/api/auth/login" }.count == 2)
    }
  }

  @Test("paging by limit/offset until a short page reads the whole history exactly once")
  func pagingReadsEverything() async throws {
    try await withFleet([DeviceProfile(name: "pages", smsCount: 23)]) { fleet in
      let device = fleet.devices[0]
      let session = makeSession(device)
      var collected: [SmsMessage] = []
      for page in 0..<20 {
        let batch = try await session.smsList(limit: 7, offset: page * 7)
        collected += batch
        if batch.count < 7 { break }
      }
      #expect(collected.map(\.id) == device.messages().map(\.id))
      #expect(Set(collected.map(\.id)).count == 23)
      let dates = collected.compactMap(\.date)
      #expect(dates.count == 23)
      #expect(dates == dates.sorted(by: >))
      device.resetDatabase()
      _ = device.receiveSMS(from: "1069", content: "fresh")
      let fresh = try await session.smsList()
      #expect(fresh.map(\.id) == [1])
      #expect(fresh.first?.phoneNumber == "1069")
    }
  }

  @Test("auth status reports the session: unauthenticated before login, authenticated after")
  func authStatusFollowsSession() async throws {
    try await withFleet([DeviceProfile(name: "status", password: Self.password)]) { fleet in
      let session = makeSession(fleet.devices[0])
      let before = try await session.authStatus()
      #expect(!before.authenticated)
      #expect(before.isProtected)
      try await session.login(password: Self.password)
      let after = try await session.authStatus()
      #expect(after.authenticated)
    }
  }

  @Test("a session wiped on the device is renewed once with the stored password")
  func reloginAfterServerWipe() async throws {
    try await withFleet([DeviceProfile(name: "wipe", password: Self.password)]) { fleet in
      let device = fleet.devices[0]
      let session = makeSession(device, password: Self.password)
      try await session.login(password: Self.password)
      _ = try await session.sim()
      device.setPassword(Self.password)
      device.clearRequests()
      _ = try await session.sim()
      #expect(device.requests().map(\.target) == ["/api/sim", "/api/auth/login", "/api/sim"])
      let renewed = await session.hasSession
      #expect(renewed)
    }
  }

  @Test("a wrong stored password is reported as wrongPassword and no cookie is kept")
  func wrongStoredPassword() async throws {
    try await withFleet([DeviceProfile(name: "locked-2", password: Self.password)]) { fleet in
      let session = makeSession(fleet.devices[0], password: "not-it")
      let error = await failure { try await session.device() }
      #expect(error?.error == .wrongPassword)
      #expect(error?.endpoint == "GET /api/device")
      #expect(error?.instance == "locked-2")
      let keptCookie = await session.hasSession
      #expect(!keptCookie)
      let explicit = await failure { try await session.login(password: "nope") }
      #expect(explicit?.error == .wrongPassword)
      #expect(explicit?.endpoint == "POST /api/auth/login")
    }
  }

  @Test("no stored password → loginRequired, and public routes still work")
  func noStoredPassword() async throws {
    try await withFleet([DeviceProfile(name: "locked-3", password: Self.password)]) { fleet in
      let device = fleet.devices[0]
      let session = makeSession(device)
      let error = await failure { try await session.smsList() }
      #expect(error?.error == .loginRequired)
      #expect(error?.localizedMessage(.simplifiedChinese).contains("需要登录") == true)
      #expect(!device.requests().contains { $0.target == "/api/auth/login" })
      let status = try await session.authStatus()
      #expect(!status.authenticated)
      #expect(status.configured)
      _ = try await session.health()
    }
  }

  @Test(
    "no modem: the device's error envelope becomes upstream(message), untranslated; the SMS list works"
  )
  func noModem() async throws {
    try await withFleet([DeviceProfile(name: "bare", hasModem: false)]) { fleet in
      let session = makeSession(fleet.devices[0])
      let errors = [
        await failure { try await session.device() },
        await failure { try await session.smsSend(phoneNumber: "10086", content: "CXYE") },
      ]
      for error in errors {
        guard case .upstream(let message) = error?.error else {
          Issue.record("expected upstream, got \(String(describing: error))")
          continue
        }
        #expect(!message.isEmpty)
        #expect(error?.localizedMessage(.english).contains(message) == true)
      }
      // The SMS database routes read only the device's database and keep working (§4).
      _ = try await session.smsList()
      _ = try await session.stats()
    }
  }

  @Test("SimAdmin 1.1.8 has no hub: plain-text 404 → notSupported")
  func oldVersionHub() async throws {
    try await withFleet([DeviceProfile(name: "old", version: "1.1.8")]) { fleet in
      let session = makeSession(fleet.devices[0])
      let hubError = await failure { try await session.hub() }
      #expect(hubError?.error == .notSupported)
      let unbind = await failure { try await session.hubUnbind() }
      #expect(unbind?.error == .notSupported)
      #expect(unbind?.endpoint == "POST /api/hub/unbind")
      let oldVersion = try await session.health().version
      #expect(oldVersion == "1.1.8")
    }
  }

  @Test("a known path with the wrong method (405) → notSupported")
  func wrongMethod() async throws {
    try await withFleet([DeviceProfile(name: "m")]) { fleet in
      let device = fleet.devices[0]
      let good = try SimAdminRoute.device.request(origin: device.origin)
      let wrong = HTTPRequest(
        method: .delete, url: good.url, headers: ["Accept": "application/json"], body: nil,
        endpoint: "DELETE /api/device")
      let response = try await SocketTransport().send(wrong, timeout: 5)
      #expect(response.status == 405)
      #expect(SimAdminSession.error(for: response, route: .device) == .notSupported)
    }
  }

  @Test("the connector drops the session and its cookie the moment the origin changes")
  func originChange() async throws {
    let profiles = [
      DeviceProfile(name: "a", password: Self.password),
      DeviceProfile(name: "b", password: Self.password),
    ]
    try await withFleet(profiles) { fleet in
      let (first, second) = (fleet.devices[0], fleet.devices[1])
      let connector = SimAdminConnector(userAgentVersion: "t") { id in
        id == "inst-1" ? Self.password : nil
      }
      let old = connector.session(for: "inst-1", name: "Alpha", origin: first.origin)
      _ = try await old.device()
      let oldLoggedIn = await old.hasSession
      #expect(oldLoggedIn)
      #expect(connector.session(for: "inst-1", name: "Alpha 2", origin: first.origin) === old)
      #expect(old.instanceName == "Alpha 2")

      let moved = connector.session(for: "inst-1", name: "Alpha 2", origin: second.origin)
      #expect(moved !== old)
      let movedLoggedIn = await moved.hasSession
      #expect(!movedLoggedIn)
      _ = try await moved.device()
      let sentToSecond = second.requests()
      #expect(sentToSecond.first?.headers["cookie"] == nil)
      let firstCookie = try #require(first.requests().last?.headers["cookie"])
      #expect(!sentToSecond.contains { $0.headers["cookie"] == firstCookie })

      connector.forget(instanceID: "inst-1")
      #expect(connector.instanceIDs.isEmpty)
      #expect(connector.session(for: "inst-1", name: "A", origin: second.origin) !== moved)
    }
  }
}
