import Essentials
import Foundation

/// One simulated SimAdmin device of a running ``SimulatedFleet``: its port, its data, and
/// knobs a test can turn while it runs. Safe to use from any thread.
public final class SimulatedDevice: Sendable {
  /// The device's port on 127.0.0.1 (kept while it is `.down`).
  public let port: Int
  let index: Int
  let server: FleetServer
  let clock: AppClock
  let state: Locked<DeviceState>

  init(index: Int, port: Int, profile: DeviceProfile, server: FleetServer, clock: AppClock) {
    self.index = index
    self.port = port
    self.server = server
    self.clock = clock
    state = Locked(DeviceState(profile: profile, now: clock.now()))
  }

  /// The device's current profile (with any knob changes).
  public var profile: DeviceProfile { state.withLock { $0.profile } }

  /// `http://127.0.0.1:<port>`.
  public var origin: URL {
    URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
  }

  // MARK: - Knobs

  /// Replaces the fault rules. A `.down` rule closes the port (and open connections) before
  /// this returns; removing it reopens the same port.
  public func setFaults(_ rules: [FaultRule]) {
    state.withLock { $0.profile.faults = rules }
    let down = rules.contains { $0.fault == .down }
    let port = port
    let index = index
    _ = server.loop.run { [server] in
      if down {
        server.takeDown(index: index, port: port)
      } else {
        _ = try? server.openListener(index: index, port: port)
      }
    }
  }

  /// Turns password protection on (`password`) or off (`nil`) and wipes every session.
  public func setPassword(_ password: String?) {
    state.withLock {
      $0.profile.password = password
      $0.sessions.removeAll()
    }
  }

  /// Sets the Hub binding, as the device's own configuration page would.
  public func setHub(_ binding: HubBinding) {
    state.withLock { state in
      state.hub = HubState(
        binding, agentID: state.identity.agentID, deviceID: "dev_" + state.identity.imei)
    }
  }

  /// Changes the reported version (`"1.1.8"` removes the `/api/hub*` routes).
  public func setVersion(_ version: String) {
    state.withLock { $0.profile.version = version }
  }

  /// Plugs or unplugs the modem. A modem plugged in is found by the next lookup at once.
  public func setHasModem(_ present: Bool) {
    let now = clock.now()
    state.withLock {
      $0.profile.hasModem = present
      if present { $0.modemReadyAt = now }
    }
  }

  // MARK: - Messages

  /// Stores an incoming message from `from`, stamped `at` (default: the device's clock now,
  /// ``setClockOffset(_:)``), in its firmware's form.
  @discardableResult
  public func receiveSMS(from: String, content: String, at: Date? = nil) -> SimulatedSMS {
    let draft = SMSGenerator.Draft(direction: "incoming", phoneNumber: from, content: content)
    let now = clock.now()
    return state.withLock { state in
      state.append(draft, timestamp: state.stamp(at ?? now.addingTimeInterval(state.clockOffset)))
    }
  }

  /// Stores a row with the device's `timestamp` text exactly as given (`""`,
  /// `0000-00-00 00:00:00`, `2026-02-30 10:00:00`, an epoch number, a far future…) and, for an
  /// incoming row, a fresh marker unless `pdu` is given. A device that stored it so (a broken
  /// modem, a proxy, an old firmware) answers it as text.
  @discardableResult
  public func storeSMS(
    direction: String, phoneNumber: String, content: String, timestamp: String,
    pdu: String? = nil
  ) -> SimulatedSMS {
    let draft = SMSGenerator.Draft(direction: direction, phoneNumber: phoneNumber, content: content)
    return state.withLock { state in
      let stored = state.append(draft, timestamp: timestamp)
      guard let pdu, let index = state.messages.lastIndex(where: { $0.id == stored.id }) else {
        return stored
      }
      state.messages[index].pdu = pdu
      return state.messages[index]
    }
  }

  // MARK: - Clock, firmware, backup, SIM (issue 29)

  /// Sets how far the device's own clock is off, in seconds (negative: slow). SimAdmin never
  /// sets it; live messages and sends are stamped with it (SIMADMIN-API §6).
  public func setClockOffset(_ seconds: TimeInterval) {
    state.withLock { $0.clockOffset = seconds }
  }

  /// Runs SimAdmin v1.0.0–1.0.5 (`true`): rows stored from now on carry RFC 3339 UTC
  /// timestamps (`2026-05-19T08:17:25.123456789+00:00`) and incoming ones `mm:<path>`
  /// markers (`db.rs` `Utc::now().to_rfc3339()`, `sms_listener.rs` at v1.0.0).
  public func setLegacyFirmware(_ legacy: Bool) {
    state.withLock { $0.legacyFirmware = legacy }
  }

  /// Upgrades to v1.0.6: every RFC 3339 timestamp is rewritten in the Beijing form (same row,
  /// same id, same marker, new text: `normalize_existing_sms_timestamps`), and new rows are
  /// stamped in that form.
  public func upgradeRewritingTimestamps() {
    state.withLock { $0.rewriteTimestamps() }
  }

  /// Every row as a backup (`/api/backup`) holds it.
  public func backup() -> [SimulatedSMS] {
    state.withLock { $0.messages }
  }

  /// Restores `backup` (default: every row now) as the device's backup import does: with
  /// `replacing` (the import's replace mode) every row is deleted first; each row not present
  /// with the same content, timestamp and marker comes back with a new, higher id.
  public func restoreBackup(_ backup: [SimulatedSMS]? = nil, replacing: Bool = true) {
    state.withLock { state in state.restore(backup ?? state.messages, replacing: replacing) }
  }

  /// Swaps the SIM: `/api/sim` reports `phoneNumber` (nil: unknown) and another ICCID from now
  /// on. Stored messages stay as they are (SimAdmin keeps no SIM per message).
  public func swapSIM(phoneNumber: String?) {
    state.withLock { state in
      let swaps = Int(state.swappedSIM?.iccid.suffix(2) ?? "") ?? 0
      state.swappedSIM = (phoneNumber, "898600000000000000" + String(format: "%02d", swaps + 1))
    }
  }

  /// Adds one seeded incoming message now (live traffic), shaped by the device's
  /// ``SMSCase``s.
  func receiveLiveSMS() {
    let now = clock.now()
    state.withLock { $0.liveTick(now: now) }
  }

  /// Stores a message as the device would: `direction` `incoming` (with a fresh `mmfp:`
  /// marker unless `pdu` is given) or `outgoing`; `at` is its timestamp (an older one makes a
  /// late message, a year-2000 one a clock reset). Two calls with equal values make two rows.
  /// `status` overrides the stored status: `failed` is how the device's automation stores an
  /// outgoing message it could not send.
  @discardableResult
  public func storeSMS(
    direction: String, phoneNumber: String, content: String, at: Date? = nil,
    contentBytes: [UInt8]? = nil, status: String? = nil
  ) -> SimulatedSMS {
    let now = clock.now()
    let draft = SMSGenerator.Draft(direction: direction, phoneNumber: phoneNumber, content: content)
    return state.withLock { state in
      let date = at ?? now.addingTimeInterval(state.clockOffset)
      let stored = state.append(draft, timestamp: state.stamp(date), status: status)
      guard let contentBytes, let index = state.messages.lastIndex(where: { $0.id == stored.id })
      else { return stored }
      state.messages[index].contentBytes = contentBytes
      return state.messages[index]
    }
  }

  /// Adds `count` seeded live messages now, shaped by the device's ``SMSCase``s (what
  /// `trafficPerMinute` does over time, at once).
  public func receiveLiveTraffic(count: Int) {
    let now = clock.now()
    state.withLock { state in
      for _ in 0..<max(0, count) { state.liveTick(now: now) }
    }
  }

  /// Replaces the device's ``SMSCase``s.
  public func setSMSCases(_ cases: [SMSCase]) {
    state.withLock { $0.profile.smsCases = cases }
  }

  /// Renumbers every stored message from 1 in the device's order and restarts ids after them,
  /// as a restore onto a re-flashed device does.
  public func renumberMessages() {
    state.withLock { $0.resetDatabase(keeping: $0.messages.count) }
  }

  /// Every stored message, newest first (`ORDER BY timestamp DESC, id DESC`).
  public func messages() -> [SimulatedSMS] {
    state.withLock { $0.messages.reversed() }
  }

  /// Deletes the messages with these ids, as the device's own UI would.
  public func deleteMessages(ids: [Int64]) {
    let wanted = Set(ids)
    state.withLock { _ = $0.delete { wanted.contains($0.id) } }
  }

  /// Gives the messages with these ids another `status`. SimAdmin itself never changes one (an
  /// incoming row stays `received`); a later version might mark rows read, which moves
  /// `/api/sms/stats` `incoming` (status `received` only) while no row comes or goes.
  public func setStatus(_ status: String, ids: [Int64]) {
    let wanted = Set(ids)
    state.withLock { state in
      for index in state.messages.indices where wanted.contains(state.messages[index].id) {
        state.messages[index].status = status
      }
    }
  }

  /// Keeps the newest `keepingMessages` messages renumbered from 1, and restarts ids after
  /// them, like a re-flashed device. Sessions are kept.
  public func resetDatabase(keepingMessages: Int = 0) {
    state.withLock { $0.resetDatabase(keeping: keepingMessages) }
  }

  /// The next queued send when the modem is free (taken off the queue), for the server.
  func takeNextSend() -> Int? {
    state.withLock { $0.takeNextSend() }
  }

  /// The modem starts on `token`'s send; the seconds it takes.
  func beginSend(_ token: Int) -> Double {
    state.withLock { $0.beginSend(token) }
  }

  /// Forgets a send whose client left before the modem took it.
  func dropSend(_ token: Int) {
    state.withLock { $0.dropSend(token) }
  }

  /// Whether a client that leaves cancels its send (``SendCompletion/cancelledWithClient``).
  var sendsEndWithTheirClient: Bool {
    state.withLock { $0.profile.sendCompletion == .cancelledWithClient }
  }

  /// The modem is done with `token`'s send; its answer.
  func finishSend(_ token: Int, clientGone: Bool) -> HTTPResponse {
    let now = clock.now()
    return state.withLock { $0.finishSend(token, clientGone: clientGone, now: now) }
  }

  // MARK: - Sending

  /// Seconds the modem takes for each SMS from now on (sends wait for each other).
  public func setSendSeconds(_ seconds: Double) {
    state.withLock { $0.profile.sendSeconds = seconds }
  }

  /// What a send does when its client gives up first (``SendCompletion``).
  public func setSendCompletion(_ completion: SendCompletion) {
    state.withLock { $0.profile.sendCompletion = completion }
  }

  /// Makes every send fail with `Failed to send SMS: <reason>` (nothing stored, nothing sent);
  /// nil sends again.
  public func setSendFailure(_ reason: String?) {
    state.withLock { $0.sendFailure = reason }
  }

  /// Every SMS the modem sent out, oldest first: what recipients got, whether or not the
  /// device's database kept a row (a send whose client gave up mid-way is sent, not stored).
  public func transmitted() -> [TransmittedSMS] {
    state.withLock { $0.transmitted }
  }

  /// Sends the modem is still working on or waiting for.
  public var sendsInProgress: Int {
    state.withLock { $0.pendingSends.count }
  }

  // MARK: - Logins

  /// Every `POST /api/auth/login`, oldest first.
  public func loginAttempts() -> [LoginAttempt] {
    state.withLock { $0.logins }
  }

  /// When the device alerted its owner about failed logins (5 within 5 minutes, at most once
  /// every 5 minutes; `system_event.rs`).
  public func securityAlerts() -> [Date] {
    state.withLock { $0.securityAlerts }
  }

  // MARK: - Modem, data and Hub

  /// Switches mobile data on or off as the device's own switch does (`POST /api/data`): off,
  /// `/api/data` answers `active: false` without looking the modem up.
  public func setDataEnabled(_ enabled: Bool) {
    state.withLock { $0.dataActive = enabled }
  }

  /// Turns airplane mode on or off (the modem disabled: powered, not online).
  public func setAirplaneMode(_ enabled: Bool) {
    state.withLock { $0.airplaneMode = enabled }
  }

  /// Forgets the failed modem search, as 30 seconds on the device's clock would.
  public func forgetModemSearch() {
    state.withLock {
      $0.modemSearchFailedAt = nil
      $0.modemSearchEnds = 0
    }
  }

  /// The device's Hub binding as its configuration stands now.
  public var hubBinding: HubBinding {
    state.withLock { $0.hub.binding }
  }

  /// Whether the device advertises itself over mDNS and its unauthenticated
  /// `POST /api/hub/provision` accepts anyone: centrally managed with no Hub (after an
  /// unbind, for one).
  public var isClaimable: Bool {
    state.withLock { $0.profile.hasHubRoutes && $0.hub.enabled && !$0.hub.isBound }
  }

  // MARK: - Requests and sessions

  /// Every request received, oldest first.
  public func requests() -> [RecordedRequest] {
    state.withLock { $0.requests }
  }

  /// Forgets the recorded requests.
  public func clearRequests() {
    state.withLock { $0.requests.removeAll() }
  }

  /// Sessions that are still valid.
  public var activeSessionCount: Int {
    let now = clock.now()
    return state.withLock { state in state.sessions.values.count { $0 > now } }
  }

  // MARK: - Serving

  /// Records `request` and decides the answer, faults included.
  func plan(for request: RecordedRequest, now: Date) -> ResponsePlan {
    state.withLock { state in
      state.requests.append(request)
      state.burst(for: request, now: now)
      let rules = state.profile.faults
      state.servesHostileText = rules.contains {
        $0.fault == .hostileText && $0.matches(path: request.path, method: request.method)
      }
      var noise = state.noise
      defer { state.noise = noise }
      state.modemDelay = 0
      var plan = ResponsePlan.make(rules: rules, request: request, noise: &noise) {
        DeviceRouter.respond(to: request, state: &state, now: now)
      }
      plan.delay += state.modemDelay
      return plan
    }
  }
}
