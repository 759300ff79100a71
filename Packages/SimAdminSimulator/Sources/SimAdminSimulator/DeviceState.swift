import Dispatch
import Essentials
import Foundation

/// Everything a simulated device remembers; always accessed under its device's lock.
struct DeviceState {
  var profile: DeviceProfile
  let identity: DeviceIdentity
  let startedAt: Date
  /// Ascending by (timestamp, id): the newest message is last.
  var messages: [SimulatedSMS] = []
  var nextID: Int64 = 1
  var sentCount = 0
  /// Session token → expiry.
  var sessions: [String: Date] = [:]
  var hub: HubState
  /// When the slow first modem lookup (``DeviceProfile/modemLookupSeconds``) ends.
  var modemReadyAt: Date?
  /// Without a modem: when the running modem search ends (uptime seconds; lookups meanwhile
  /// wait for it behind the device's discovery lock).
  var modemSearchEnds: Double = 0
  /// Without a modem: when the last search failed, by the device's clock (answered at once
  /// for ``modemFailureCacheSeconds``).
  var modemSearchFailedAt: Date?
  /// Seconds the request being answered waited for its modem lookup (added to its delay).
  var modemDelay: Double = 0
  /// Whether the modem is sending right now (the device's modem lock is held).
  var modemSending = false
  /// Sends waiting for the modem lock, first come first served (tokio's fair mutex).
  var sendQueue: [Int] = []
  /// Sends the modem is working on or waiting for, by token.
  var pendingSends: [Int: PendingSend] = [:]
  var nextSendToken = 0
  /// Why every send fails (the modem's refusal), or nil.
  var sendFailure: String?
  /// Every SMS the modem sent out, whatever the database kept of it.
  var transmitted: [TransmittedSMS] = []
  /// Every login attempt, oldest first.
  var logins: [LoginAttempt] = []
  /// The security alerts sent to the owner about failed logins.
  var securityAlerts: [Date] = []
  var dataActive = true
  var roamingAllowed = false
  var airplaneMode = false
  var requests: [RecordedRequest] = []
  var generator: SMSGenerator
  var noise: SplitMix64
  /// Whether the answer being built carries ``HostileText`` (a ``Fault/hostileText`` rule
  /// matches the request).
  var servesHostileText = false
  /// Live messages so far (the ``SMSCase``s act on every n-th).
  var liveTicks = 0
  /// How far the device's own clock is off (seconds; negative: slow). SimAdmin never sets the
  /// clock, and stamps live messages and sends with it (SIMADMIN-API §6).
  var clockOffset: TimeInterval = 0
  /// Whether the device runs SimAdmin v1.0.0–1.0.5: new rows are stamped with RFC 3339 UTC
  /// (`Utc::now().to_rfc3339()`) and incoming ones marked `mm:<ModemManager SMS path>`.
  var legacyFirmware = false
  /// The next ModemManager SMS object number (`/org/freedesktop/ModemManager1/SMS/N`).
  var modemSMSPath = 0
  /// The SIM in the slot: its own number (nil: unknown) and ICCID, after a swap.
  var swappedSIM: (phoneNumber: String?, iccid: String)?

  static let sessionLifetime: TimeInterval = 604_800
  /// How long a failed modem search is answered from memory (`modem_manager.rs`
  /// `MODEM_DISCOVERY_FAILURE_CACHE_SECS`).
  static let modemFailureCacheSeconds: TimeInterval = 30
  /// The failed-login alert: this many failures within the window (`system_event.rs`
  /// `LOGIN_FAILURE_THRESHOLD`, `LOGIN_FAILURE_WINDOW`), at most one alert per window.
  static let loginFailureThreshold = 5
  static let loginFailureWindow: TimeInterval = 300
  static let historySpan: TimeInterval = 28 * 86_400
  static let historyPoolSize = 512

  init(profile: DeviceProfile, now: Date) {
    self.profile = profile
    identity = DeviceIdentity(seed: profile.seed, name: profile.name)
    startedAt = now
    let binding =
      profile.hub ?? (identity.hubBound ? .bound(url: identity.hubURL) : .standalone())
    hub = HubState(binding, agentID: identity.agentID, deviceID: "dev_" + identity.imei)
    generator = SMSGenerator(seed: profile.seed, name: profile.name)
    noise = SplitMix64(seed: profile.seed &+ 0xA015E, name: profile.name)
    seedHistory(count: profile.smsCount, now: now)
  }

  /// `text` as this answer shows it: with ``HostileText/payload`` inside when hostile.
  func shown(_ text: String) -> String {
    servesHostileText ? HostileText.wrap(text) : text
  }

  // MARK: - Messages

  /// Fills the history with `count` messages spread over the four weeks before `now`.
  /// Past ``historyPoolSize`` messages the texts are drawn from a pool of that many
  /// generated drafts, so a 10,000-message benchmark device starts quickly.
  mutating func seedHistory(count: Int, now: Date) {
    guard count > 0 else { return }
    messages.reserveCapacity(count)
    let pool =
      count > Self.historyPoolSize
      ? (0..<Self.historyPoolSize).map { _ in generator.history() } : []
    let step = Self.historySpan / Double(count)
    let base = now.timeIntervalSince1970 - Self.historySpan
    for index in 0..<count {
      let offset = step * Double(index) + Double(generator.rng.next() % 1000) / 1000 * step * 0.9
      let draft =
        pool.isEmpty ? generator.history() : pool[Int(generator.rng.next() % UInt64(pool.count))]
      let date = Date(timeIntervalSince1970: min(base + offset, now.timeIntervalSince1970 - 1))
      append(draft, timestamp: BeijingTime.string(from: date))
    }
  }

  /// The device's text for `date` as its firmware writes it: the Beijing form, or on
  /// v1.0.0–1.0.5 chrono's `to_rfc3339()` of UTC (fractional seconds when not whole).
  func stamp(_ date: Date) -> String {
    guard legacyFirmware else { return BeijingTime.string(from: date) }
    let text = CivilTime(date, offsetSeconds: 0).text()
    let seconds = date.timeIntervalSince1970
    let nanos = Int(((seconds - seconds.rounded(.down)) * 1_000_000_000).rounded())
    let fraction = nanos == 0 ? "" : "." + String(format: "%09d", min(nanos, 999_999_999))
    return text.prefix(10) + "T" + text.suffix(8) + fraction + "+00:00"
  }

  /// The marker a new incoming row gets: `mmfp:<md5>` (v1.0.6 on), `mm:<path>` before.
  mutating func marker() -> String {
    guard legacyFirmware else { return generator.fingerprint() }
    modemSMSPath += 1
    return "mm:/org/freedesktop/ModemManager1/SMS/\(modemSMSPath)"
  }

  /// Stores a message with the next id, keeping the (timestamp, id) order.
  @discardableResult
  mutating func append(_ draft: SMSGenerator.Draft, timestamp: String, status: String? = nil)
    -> SimulatedSMS
  {
    let incoming = draft.direction == "incoming"
    let pdu = incoming ? marker() : nil
    return insert(
      SimulatedSMS(
        id: nextID, direction: draft.direction, phoneNumber: draft.phoneNumber,
        content: draft.content, timestamp: timestamp,
        status: status ?? (incoming ? "received" : "sent"), pdu: pdu))
  }

  /// Stores `row` under the next id (its own id is replaced), keeping the (timestamp, id)
  /// order.
  @discardableResult
  mutating func insert(_ row: SimulatedSMS) -> SimulatedSMS {
    var message = row
    message.id = nextID
    let timestamp = message.timestamp
    nextID += 1
    if let last = messages.last, last.timestamp > timestamp {
      // Older than the newest: binary search for its place (ids only grow, so it goes last
      // among equal timestamps).
      var low = 0
      var high = messages.count
      while low < high {
        let middle = (low + high) / 2
        if messages[middle].timestamp <= timestamp { low = middle + 1 } else { high = middle }
      }
      messages.insert(message, at: low)
    } else {
      messages.append(message)
    }
    return message
  }

  /// Restores `backup` as SimAdmin's backup import does (`backup.rs`): with `replacing`, every
  /// row is deleted first; then each backup row not already present with the same direction,
  /// number, text, timestamp and marker is inserted with a new id (AUTOINCREMENT: above every
  /// id the device ever gave). Identical rows in the backup come back once.
  mutating func restore(_ backup: [SimulatedSMS], replacing: Bool) {
    if replacing { messages.removeAll() }
    for row in backup.sorted(by: { $0.id < $1.id }) {
      let present = messages.contains {
        $0.direction == row.direction && $0.phoneNumber == row.phoneNumber
          && $0.content == row.content && $0.timestamp == row.timestamp && $0.pdu == row.pdu
      }
      if !present { insert(row) }
    }
  }

  /// What v1.0.6 does on its first start (`normalize_existing_sms_timestamps`): every
  /// timestamp that names an instant is rewritten in the Beijing form; ids and markers stay.
  mutating func rewriteTimestamps() {
    legacyFirmware = false
    for index in messages.indices {
      let text = messages[index].timestamp
      if let date = Self.rfc3339(text) {
        messages[index].timestamp = BeijingTime.string(from: date)
      }
    }
    messages.sort { ($0.timestamp, $0.id) < ($1.timestamp, $1.id) }
  }

  /// The instant of this simulator's own RFC 3339 UTC text (`…T…[.f]+00:00`).
  static func rfc3339(_ text: String) -> Date? {
    guard text.hasSuffix("+00:00"), text.count >= 25 else { return nil }
    let core = text.dropLast(6)
    let whole = core.prefix(19).replacingOccurrences(of: "T", with: " ")
    guard let base = BeijingTime.date(from: whole) else { return nil }
    let fraction = core.dropFirst(19)
    let extra = fraction.isEmpty ? 0 : Double("0" + fraction) ?? 0
    return base.addingTimeInterval(Double(BeijingTime.offsetSeconds) + extra)
  }

  /// One tick of live traffic, shaped by the profile's ``SMSCase``s.
  mutating func liveTick(now: Date) {
    liveTicks += 1
    let cases = profile.smsCases
    for case .legacy(let ticks) in cases {
      // v1.0.x until its upgrade to v1.0.6, which rewrites the old stamps in place.
      if liveTicks <= ticks {
        legacyFirmware = true
      } else if legacyFirmware {
        rewriteTimestamps()
      }
    }
    var stamp = now.addingTimeInterval(clockOffset)
    for case .clockOffset(let minutes) in cases {
      stamp = stamp.addingTimeInterval(Double(minutes) * 60)
    }
    if cases.contains(.clockReset) {
      // 2000-01-01 00:00:00 in Beijing time.
      let fallback = Date(timeIntervalSince1970: 946_656_000)
      stamp = fallback.addingTimeInterval(max(0, now.timeIntervalSince(startedAt)))
    }
    for case .late(let minutes) in cases where liveTicks % 3 == 0 {
      stamp = stamp.addingTimeInterval(-Double(minutes) * 60)
    }
    var draft = generator.incoming()
    let broken = cases.contains(.invalidUTF8) && liveTicks % 5 == 0
    var text = self.stamp(stamp)
    if cases.contains(.badDates) {
      let unnamed = [
        "", "0000-00-00 00:00:00", "2026-02-30 10:00:00", String(Int(now.timeIntervalSince1970)),
        "9999-12-31 23:59:59", "\u{1B}[8m\u{1B}]0;pwned\u{07}2026-12-01 10:00:00\u{202E}",
      ]
      text = unnamed[(liveTicks - 1) % unnamed.count]
    }
    let stored = append(draft, timestamp: text)
    if broken, let index = messages.lastIndex(where: { $0.id == stored.id }) {
      // A stray Latin-1 byte and a cut-off three-byte sequence inside the body.
      messages[index].contentBytes =
        Array("坏".utf8) + [0xFF, 0xE9, 0x20] + Array(stored.content.utf8.prefix(30)) + [0xE4, 0xBD]
    }
    if cases.contains(.identical) && liveTicks % 4 == 0 {
      draft = SMSGenerator.Draft(direction: "outgoing", phoneNumber: "10086", content: "收到")
      let text = self.stamp(stamp)
      append(draft, timestamp: text)
      append(draft, timestamp: text)
    }
    for case .deletes(let every) in cases
    where every > 0 && liveTicks % every == 0 && messages.count > 1 {
      let victim = Int(noise.next() % UInt64(messages.count - 1))
      messages.remove(at: victim)
    }
    for case .renumber(let every) in cases where every > 0 && liveTicks % every == 0 {
      resetDatabase(keeping: messages.count)
    }
    for case .restore(let every) in cases where every > 0 && liveTicks % every == 0 {
      restore(messages, replacing: true)
    }
    for case .simSwap(let every) in cases where every > 0 && liveTicks % every == 0 {
      let swaps = liveTicks / every
      swappedSIM = (
        "+86139" + String(format: "%08d", 10_000_000 + swaps),
        "898600000000000000" + String(format: "%02d", swaps % 100)
      )
    }
  }

  /// The messages a ``SMSCase/burst(count:)`` device receives as a list request past the
  /// first page comes in.
  mutating func burst(for request: RecordedRequest, now: Date) {
    guard request.path == "/api/sms/list", let offset = request.query["offset"].flatMap(Int.init),
      offset > 0
    else { return }
    for case .burst(let count) in profile.smsCases {
      for _ in 0..<count {
        append(generator.incoming(), timestamp: stamp(now.addingTimeInterval(clockOffset)))
      }
    }
  }

  /// Newest first, filtered by direction, then paged. From 1.1.4 ties in time come newest id
  /// first (`ORDER BY timestamp DESC, id DESC`); before, by time only, and the simulator
  /// returns such ties oldest id first, an order a client must not rely on either way.
  func page(direction: String?, offset: Int, limit: Int) -> ArraySlice<SimulatedSMS> {
    guard profile.ordersTiesByID else {
      let newestFirst = Self.timeOnlyOrder(messages.reversed())
      let filtered = newestFirst.lazy.filter { direction == nil || $0.direction == direction }
      return ArraySlice(filtered.dropFirst(offset).prefix(limit))
    }
    if let direction {
      let filtered = messages.reversed().lazy.filter { $0.direction == direction }
      return ArraySlice(filtered.dropFirst(offset).prefix(limit))
    }
    let end = messages.count - min(offset, messages.count)
    let start = max(0, end - limit)
    return ArraySlice(messages[start..<end].reversed())
  }

  /// `ORDER BY timestamp DESC` alone (before 1.1.4): rows newest first, ties in time
  /// reversed to oldest id first.
  static func timeOnlyOrder<S: Sequence>(_ newestFirst: S) -> [SimulatedSMS]
  where S.Element == SimulatedSMS {
    var result: [SimulatedSMS] = []
    var tie: [SimulatedSMS] = []
    for message in newestFirst {
      if let first = tie.first, first.timestamp != message.timestamp {
        result += tie.reversed()
        tie.removeAll()
      }
      tie.append(message)
    }
    return result + tie.reversed()
  }

  mutating func delete(where predicate: (SimulatedSMS) -> Bool) -> Int {
    let before = messages.count
    messages.removeAll(where: predicate)
    return before - messages.count
  }

  /// Keeps the newest `keeping` messages, renumbered from 1, like a re-flashed device.
  mutating func resetDatabase(keeping: Int) {
    let kept = Array(messages.suffix(max(0, keeping)))
    messages = kept.enumerated().map { index, message in
      var copy = message
      copy.id = Int64(index + 1)
      return copy
    }
    nextID = Int64(messages.count + 1)
  }

  // MARK: - Slow paths

  /// The routes whose handlers look the modem up (`find_modem_path`).
  static let modemRoutes: Set<String> = [
    "/api/device", "/api/sim", "/api/network", "/api/cells", "/api/data", "/api/roaming",
    "/api/airplane-mode", "/api/sms/send",
  ]

  /// Looks the modem up for a request at `now` (device clock) and `uptime` (seconds of real
  /// time, which the answer's delay is counted in): the seconds the answer waits, and
  /// whether a modem was found.
  ///
  /// With a modem, the first lookup starts a ``DeviceProfile/modemLookupSeconds`` wait that
  /// every lookup until then shares. Without one, a lookup searches for
  /// ``DeviceProfile/modemLookupSeconds`` unless a search is running (it waits for that one
  /// and shares its failure) or failed less than ``modemFailureCacheSeconds`` ago by the
  /// device's clock (answered at once): so a caller sees a slow "no modem" every 30 s and a
  /// quick one in between.
  mutating func lookUpModem(now: Date, uptime: Double) -> (delay: Double, found: Bool) {
    let seconds = max(0, profile.modemLookupSeconds)
    if profile.hasModem {
      guard seconds > 0 else { return (0, true) }
      let ready = modemReadyAt ?? now.addingTimeInterval(seconds)
      modemReadyAt = ready
      return (max(0, ready.timeIntervalSince(now)), true)
    }
    if modemSearchEnds > uptime { return (modemSearchEnds - uptime, false) }
    if let failed = modemSearchFailedAt,
      now.timeIntervalSince(failed) < Self.modemFailureCacheSeconds
    {
      return (0, false)
    }
    modemSearchEnds = uptime + seconds
    modemSearchFailedAt = now.addingTimeInterval(seconds)
    return (seconds, false)
  }

  // MARK: - Sending

  /// Starts a send: sent and stored at once when the modem is quick and free, otherwise
  /// queued behind the modem lock and answered when the modem has sent it (the server drives
  /// the queue: ``takeNextSend()``, ``beginSend(_:)``, ``finishSend(_:clientGone:now:)``).
  mutating func startSend(number: String, content: String, now: Date) -> HTTPResponse {
    guard profile.sendSeconds > 0 || modemSending || !sendQueue.isEmpty else {
      return completeSend(number: number, content: content, stored: true, now: now)
    }
    nextSendToken += 1
    pendingSends[nextSendToken] = PendingSend(number: number, content: content)
    sendQueue.append(nextSendToken)
    var response = HTTPResponse(status: 200)
    response.deferredToken = nextSendToken
    return response
  }

  /// The next queued send, taken off the queue, when the modem is free.
  mutating func takeNextSend() -> Int? {
    guard !modemSending, !sendQueue.isEmpty else { return nil }
    return sendQueue.removeFirst()
  }

  /// The modem takes the lock for `token`'s send; returns the seconds it will take.
  mutating func beginSend(_ token: Int) -> Double {
    modemSending = true
    return max(0, profile.sendSeconds)
  }

  /// Forgets a send that never started: its client left while it waited for the modem, and
  /// hyper dropped the handler (nothing went out).
  mutating func dropSend(_ token: Int) {
    pendingSends[token] = nil
  }

  /// The modem is done with `token`'s send: it went out, and is stored unless its client
  /// left meanwhile and the handler was cancelled (``SendCompletion``).
  mutating func finishSend(_ token: Int, clientGone: Bool, now: Date) -> HTTPResponse {
    modemSending = false
    guard let send = pendingSends.removeValue(forKey: token) else {
      return .error("Failed to send SMS: cancelled")
    }
    let stored = !clientGone || profile.sendCompletion == .detached
    return completeSend(number: send.number, content: send.content, stored: stored, now: now)
  }

  /// The modem's part of a send: refused (``sendFailure``), or sent out and, when `stored`,
  /// kept as an outgoing row stamped now.
  mutating func completeSend(number: String, content: String, stored: Bool, now: Date)
    -> HTTPResponse
  {
    if let sendFailure { return .error("Failed to send SMS: " + sendFailure) }
    transmitted.append(TransmittedSMS(phoneNumber: number, content: content, at: now))
    let path = "/org/freedesktop/ModemManager1/SMS/\(sentCount)"
    sentCount += 1
    if stored {
      // Stamped by the device's own clock, in its firmware's form.
      let draft = SMSGenerator.Draft(direction: "outgoing", phoneNumber: number, content: content)
      append(draft, timestamp: stamp(now.addingTimeInterval(clockOffset)))
    }
    return .ok(.fields([("path", .string(path))]), message: "SMS sent")
  }

  // MARK: - Logins

  /// Records a login attempt and, after ``loginFailureThreshold`` failures within
  /// ``loginFailureWindow``, the owner's alert (at most one per window).
  mutating func recordLogin(accepted: Bool, now: Date) {
    logins.append(LoginAttempt(at: now, accepted: accepted))
    guard !accepted else { return }
    let recent = logins.filter {
      !$0.accepted && now.timeIntervalSince($0.at) <= Self.loginFailureWindow
    }
    let cooled =
      securityAlerts.last.map {
        now.timeIntervalSince($0) >= Self.loginFailureWindow
      } ?? true
    if recent.count >= Self.loginFailureThreshold, cooled { securityAlerts.append(now) }
  }

  // MARK: - Sessions

  mutating func createSession(now: Date) -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let token = Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
    sessions[token] = now.addingTimeInterval(Self.sessionLifetime)
    return token
  }

  mutating func isValidSession(_ token: String?, now: Date) -> Bool {
    guard let token, let expiry = sessions[token] else { return false }
    guard expiry > now else {
      sessions[token] = nil
      return false
    }
    return true
  }
}

/// A send the modem is working on or waiting for.
struct PendingSend {
  var number: String
  var content: String
}

/// One SMS a simulated modem sent out: what the recipient got, whether or not the device's
/// database kept a row for it.
public struct TransmittedSMS: Sendable, Hashable {
  /// The number it went to, as the client gave it.
  public var phoneNumber: String
  /// The text.
  public var content: String
  /// When it went out, by the device's clock.
  public var at: Date
}

/// One `POST /api/auth/login`.
public struct LoginAttempt: Sendable, Hashable {
  /// When, by the device's clock.
  public var at: Date
  /// Whether the password was right.
  public var accepted: Bool
}

/// Seconds of monotonic time, the clock the server's delays run on.
enum Uptime {
  static func seconds() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
  }
}
