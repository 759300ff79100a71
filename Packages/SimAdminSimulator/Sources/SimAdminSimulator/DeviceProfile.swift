/// How one simulated SimAdmin device looks and behaves when the fleet starts.
public struct DeviceProfile: Sendable, Hashable {
  /// Used for the hostname (`nodename`) and to vary the seeded data between devices.
  public var name: String
  /// The SimAdmin version reported by `/api/health`; `"1.1.8"` (anything before 1.1.9) has
  /// no `/api/hub*` routes and answers them with the plain-text 404.
  public var version: String
  /// `nil` turns password protection off; a value turns it on (and counts as configured).
  public var password: String?
  /// Protection on with no admin password set (``password`` nil): every protected route
  /// answers 401 `管理员密码尚未设置`, and logging in is impossible (SIMADMIN-API §2).
  public var protectedWithoutPassword: Bool
  /// The Hub binding at start; `nil` picks one from the seed (a third bound, the rest
  /// standalone).
  public var hub: HubBinding?
  /// Seconds a modem lookup takes when it has to search (`modem_manager.rs`
  /// `find_modem_path`). With a modem, only the first lookup searches (a modem still
  /// starting); later ones are quick. Without one (``hasModem`` false) every lookup searches
  /// (`mmcli --scan-modems`, then up to 5 s of polling on the real device) unless a search
  /// failed less than 30 s before, whose failure is answered at once: the failure cache the
  /// device keeps for only 30 s. Every modem-backed route looks the modem up: `/api/device`,
  /// `/api/sim`, `/api/network`, `/api/cells`, `/api/data`, `/api/roaming`,
  /// `/api/airplane-mode` and `/api/sms/send`.
  public var modemLookupSeconds: Double
  /// Seconds after start during which `/api/stats` has no sample yet and answers its default
  /// values with the message `No system stats sample yet`.
  public var statsWarmUpSeconds: Double
  /// `false` makes the modem-backed routes answer HTTP 200 with an error envelope (after the
  /// lookup, ``modemLookupSeconds``); the SMS database routes keep working, only sending fails.
  public var hasModem: Bool
  /// Reserved: reports the SIM as an eSIM. SIM mode is the default.
  public var esimMode: Bool
  /// How many seeded SMS the device's history starts with.
  public var smsCount: Int
  /// Seed of the deterministic data (mixed with ``name``).
  public var seed: UInt64
  /// Faults injected into this device's answers.
  public var faults: [FaultRule]
  /// Live incoming SMS per minute (0 = none).
  public var trafficPerMinute: Double
  /// What the device's SMS store does on purpose (late messages, a clock reset, identical
  /// rows …); see ``SMSCase``.
  public var smsCases: [SMSCase] = []
  /// Seconds the modem takes to send one SMS (`/api/sms/send` waits for it with no time
  /// limit, one send at a time behind the device's modem lock).
  public var sendSeconds: Double = 0
  /// What happens to a send whose client gave up before the device answered.
  public var sendCompletion: SendCompletion = .cancelledWithClient
  /// Whether the `/api/hub*` routes exist; `nil` decides by ``version`` (1.1.9 and later).
  /// The first builds labelled 1.1.9 have none: `false` with version `"1.1.9"` is such a build.
  public var hubRoutes: Bool? = nil
  /// Whether `/api/device` carries `revision` (the modem's `Revision` property; SimAdmin leaves
  /// the key out when the modem does not report one).
  public var reportsRevision = true

  /// A profile with SimAdmin v1.1.10 defaults: no password, a modem, 40 seeded messages.
  public init(
    name: String,
    version: String = "1.1.10",
    password: String? = nil,
    protectedWithoutPassword: Bool = false,
    hub: HubBinding? = nil,
    hasModem: Bool = true,
    esimMode: Bool = false,
    smsCount: Int = 40,
    seed: UInt64 = 1,
    faults: [FaultRule] = [],
    trafficPerMinute: Double = 0,
    smsCases: [SMSCase] = [],
    modemLookupSeconds: Double = 0,
    statsWarmUpSeconds: Double = 0
  ) {
    self.name = name
    self.version = version
    self.password = password
    self.protectedWithoutPassword = protectedWithoutPassword
    self.hub = hub
    self.modemLookupSeconds = modemLookupSeconds
    self.statsWarmUpSeconds = statsWarmUpSeconds
    self.hasModem = hasModem
    self.esimMode = esimMode
    self.smsCount = smsCount
    self.seed = seed
    self.faults = faults
    self.trafficPerMinute = trafficPerMinute
    self.smsCases = smsCases
  }

  /// What a modem-backed route (`/api/device`, `/api/sim` …) of a device without a modem
  /// answers in its error envelope: the handler's `Failed: ` and the failed modem search.
  public static let noModemMessage = "Failed: " + DeviceRouter.noModem
  /// What `/api/sms/send` answers on a device without a modem.
  public static let noModemSendMessage = "Failed to send SMS: " + DeviceRouter.noModem

  /// Whether protected routes need a session (a password is set, or protection is on
  /// without one).
  var isProtected: Bool { password != nil || protectedWithoutPassword }

  /// Whether this build has the Hub routes (added in SimAdmin 1.1.9, missing from its first
  /// builds: ``hubRoutes``).
  var hasHubRoutes: Bool {
    hubRoutes ?? versionAtLeast(1, 1, 9)
  }

  /// Whether `/api/sms/list` breaks timestamp ties by id (`ORDER BY timestamp DESC, id DESC`,
  /// from 1.1.4); before, ties come back in whatever order SQLite's sort left them.
  var ordersTiesByID: Bool { versionAtLeast(1, 1, 4) }

  func versionAtLeast(_ major: Int, _ minor: Int, _ patch: Int) -> Bool {
    let parts = version.split(separator: ".").map { Int($0) ?? 0 }
    let padded = parts + Array(repeating: 0, count: max(0, 3 - parts.count))
    return (padded[0], padded[1], padded[2]) >= (major, minor, patch)
  }
}

/// What a device does with a send whose client gave up (closed the connection) before the
/// answer.
public enum SendCompletion: Sendable, Hashable {
  /// SimAdmin on Axum/hyper: a client that closes the connection cancels the handler. A send
  /// still waiting for the modem lock (or the modem lookup) never happens; one the modem has
  /// begun goes out (ModemManager finishes it) but is never stored in the device's database.
  case cancelledWithClient
  /// The handler runs to its end whatever the client does: the message goes out and is stored
  /// as sent (a device behind a proxy that keeps the upstream request alive).
  case detached
}
