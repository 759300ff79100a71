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
  /// Seconds the first modem lookup (`/api/device`, `/api/sim`, `/api/network`, `/api/cells`)
  /// takes, as on a device whose modem is missing or still starting; later lookups are quick.
  public var modemLookupSeconds: Double
  /// Seconds after start during which `/api/stats` has no sample yet and answers its default
  /// values with the message `No system stats sample yet`.
  public var statsWarmUpSeconds: Double
  /// `false` makes the modem-backed routes answer HTTP 200 with an error envelope.
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

  /// Whether protected routes need a session (a password is set, or protection is on
  /// without one).
  var isProtected: Bool { password != nil || protectedWithoutPassword }

  /// Whether this version has the Hub routes (added in SimAdmin 1.1.9).
  var hasHubRoutes: Bool {
    let parts = version.split(separator: ".").map { Int($0) ?? 0 }
    let padded = parts + Array(repeating: 0, count: max(0, 3 - parts.count))
    return (padded[0], padded[1], padded[2]) >= (1, 1, 9)
  }
}
