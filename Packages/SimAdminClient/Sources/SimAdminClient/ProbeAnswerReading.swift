/// The six answers a connection test reads besides the SMS page (health, device, SIM,
/// network, data, stats), read straight from a ``JSONCursor`` in one pass, the route's
/// promise checked on the same pass (issue 19, fleet refresh).
///
/// Each reader gives exactly what the type's `Decodable` conformance gives under
/// `JSONDecoder`, with the same tolerant rules (text where a number or a flag is expected,
/// numbers where text is expected, null or missing parts as their defaults). It steps aside
/// (throws ``JSONUndecided``) where it cannot vouch for the answer: a promised part that is
/// missing, null or of the wrong kind, a part it keeps that appears twice, a null inside a
/// list, a number only `JSONDecoder`'s own rules settle. The checked `JSONDecoder` path then
/// gives the answer or the error (``SimAdminSession/decodePayload(_:as:enveloped:fastPath:endpoint:)``).

extension JSONCursor {
  /// `lenientBool`: a boolean; a number through its `Int64` (non-zero is `true`); text
  /// `true`, `1` or `yes` in any case; `fallback` for anything else.
  mutating func lenientBool(_ fallback: Bool = false) throws -> Bool {
    switch try peek() {
    case .bool:
      return try readBool()
    case .number:
      let text: String
      switch try readNumberValue() {
      case .integer(let value): return value != 0
      case .text(let other): text = other
      }
      switch JSONNumberText.int64(text) {
      case .value(let value): return value != 0
      case .undecided: throw JSONUndecided()
      case .unreadable: return fallback
      }
    case .string:
      return ["true", "1", "yes"].contains(try readString().lowercased())
    case .null, .array, .object:
      try skipValue()
      return fallback
    }
  }

  /// `lenientDouble`: a number as `JSONDecoder` reads a `Double`; text through its leading
  /// number; `nil` for anything else.
  mutating func lenientDouble() throws -> Double? {
    switch try peek() {
    case .number:
      return JSONNumberText.double(try readNumber())
    case .string:
      return KeyedDecodingContainer<SmsMessage.CodingKeys>.leadingNumber(in: try readString())
    case .bool, .null, .array, .object:
      try skipValue()
      return nil
    }
  }

  /// `lenientArray` of strings: the strings of an array, other elements skipped; `[]` when
  /// the value is not an array. A null element steps aside.
  mutating func lenientStrings() throws -> [String] {
    guard try peek() == .array else {
      try skipValue()
      return []
    }
    var strings: [String] = []
    try enterArray()
    var first = true
    while try nextElement(&first) {
      switch try peek() {
      case .string: strings.append(try readString())
      case .null: throw JSONUndecided()
      default: try skipValue()
      }
    }
    return strings
  }

  /// The members of the object at the cursor, each key matched against `members` (a key not
  /// among them is skipped): `body` reads the value of the member it gets. A member met twice
  /// steps aside. Returns which members were met; throws ``JSONUndecided`` when the value is
  /// not an object.
  mutating func readMembers<Member>(
    _ members: MemberNames<Member>, _ body: (inout JSONCursor, Member) throws -> Void
  ) throws -> MetMembers<Member> {
    guard try peek() == .object else { throw JSONUndecided() }
    var met = MetMembers(members)
    try enterObject()
    var first = true
    while let key = try nextMember(&first) {
      guard let index = members.names.firstIndex(where: { self.key(key, is: $0) }) else {
        try skipValue()
        continue
      }
      guard met.insert(index) else { throw JSONUndecided() }
      try body(&self, members.keys[index])
    }
    return met
  }

  /// Whether `key` is exactly `name` (UTF-8).
  @inline(__always)
  func key(_ key: Key, is name: [UInt8]) -> Bool {
    name.withUnsafeBufferPointer { expected in
      if let decoded = key.decoded { return decoded.utf8.elementsEqual(expected) }
      guard key.length == expected.count else { return false }
      for offset in 0..<key.length where bytes[key.start &+ offset] != expected[offset] {
        return false
      }
      return true
    }
  }

  /// Steps aside unless a value other than null follows: a promised part, which the
  /// checked path reports when it is null.
  mutating func expectPresent() throws {
    guard try peek() != .null else { throw JSONUndecided() }
  }
}

/// The member names a cursor reader matches, taken from the model's `CodingKeys`: the one list
/// both readers of a model use, so the `Decodable` conformance and the reader cannot name a
/// member differently, and a reader's `switch` over the keys is checked by the compiler.
struct MemberNames<Member: CodingKey & Equatable & Sendable>: Sendable {
  /// The members read, in order.
  let keys: [Member]
  /// Their names' UTF-8 bytes, in the same order.
  let names: [[UInt8]]

  /// The members `keys` of a model whose reader keeps only those (a glance); at most 64 (the
  /// models have up to 24).
  init(_ keys: [Member]) {
    self.keys = Array(keys.prefix(64))
    names = self.keys.map { Array($0.stringValue.utf8) }
  }
}

extension MemberNames where Member: CaseIterable {
  /// Every member of the model.
  init() {
    self.init(Array(Member.allCases))
  }
}

/// Which members of a ``MemberNames`` an object held.
struct MetMembers<Member: CodingKey & Equatable & Sendable> {
  private let members: MemberNames<Member>
  private var bits: UInt64 = 0

  init(_ members: MemberNames<Member>) {
    self.members = members
  }

  /// Notes the member at `index`; `false` when it was met already.
  mutating func insert(_ index: Int) -> Bool {
    let bit: UInt64 = 1 << UInt64(index)
    guard bits & bit == 0 else { return false }
    bits |= bit
    return true
  }

  /// Whether `member` was met.
  func contains(_ member: Member) -> Bool {
    guard let index = members.keys.firstIndex(of: member) else { return false }
    return bits & (1 << UInt64(index)) != 0
  }
}

extension HealthInfo: JSONCursorDecodable {
  static let members = MemberNames<CodingKeys>()

  /// Reads the body of `GET /api/health`; `status` is promised.
  static func read(from cursor: inout JSONCursor) throws -> HealthInfo {
    var health = HealthInfo(status: "", message: "", platform: "", version: "")
    let met = try cursor.readMembers(members) { cursor, member in
      switch member {
      case .status:
        try cursor.expectPresent()
        health.status = try cursor.lenientOptionalString() ?? ""
      case .message: health.message = try cursor.lenientOptionalString() ?? ""
      case .platform: health.platform = try cursor.lenientOptionalString() ?? ""
      case .version: health.version = try cursor.lenientOptionalString() ?? ""
      }
    }
    guard met.contains(.status) else { throw JSONUndecided() }
    return health
  }

  init(status: String, message: String, platform: String, version: String) {
    self.status = status
    self.message = message
    self.platform = platform
    self.version = version
  }
}

extension DeviceInfo: JSONCursorDecodable {
  static let members = MemberNames<CodingKeys>()

  /// Reads `data` of `GET /api/device`; `imei` is promised.
  static func read(from cursor: inout JSONCursor) throws -> DeviceInfo {
    var device = DeviceInfo(
      imei: "", manufacturer: "", model: "", revision: nil, online: false, powered: false)
    let met = try cursor.readMembers(members) { cursor, member in
      switch member {
      case .imei:
        try cursor.expectPresent()
        device.imei = try cursor.lenientOptionalString() ?? ""
      case .manufacturer: device.manufacturer = try cursor.lenientOptionalString() ?? ""
      case .model: device.model = try cursor.lenientOptionalString() ?? ""
      case .revision: device.revision = try cursor.lenientOptionalString()
      case .online: device.online = try cursor.lenientBool()
      case .powered: device.powered = try cursor.lenientBool()
      }
    }
    guard met.contains(.imei) else { throw JSONUndecided() }
    return device
  }

  init(
    imei: String, manufacturer: String, model: String, revision: String?, online: Bool,
    powered: Bool
  ) {
    self.imei = imei
    self.manufacturer = manufacturer
    self.model = model
    self.revision = revision
    self.online = online
    self.powered = powered
  }
}

extension SimInfo.Glance: JSONCursorDecodable {
  /// The members a glance keeps, by ``SimInfo``'s own keys.
  static let members = MemberNames<SimInfo.CodingKeys>([
    .present, .iccid, .phoneNumbers, .operatorName, .registeredOperatorName,
  ])

  /// Reads `data` of `GET /api/sim`, the parts a glance keeps; `present` is promised.
  static func read(from cursor: inout JSONCursor) throws -> SimInfo.Glance {
    var glance = SimInfo.Glance(
      present: false, iccid: "", phoneNumbers: [], operatorName: "", registeredOperatorName: "")
    let met = try cursor.readMembers(members) { cursor, member in
      switch member {
      case .present:
        try cursor.expectPresent()
        glance.present = try cursor.lenientBool()
      case .iccid: glance.iccid = try cursor.lenientOptionalString() ?? ""
      case .phoneNumbers: glance.phoneNumbers = try cursor.lenientStrings()
      case .operatorName: glance.operatorName = try cursor.lenientOptionalString() ?? ""
      case .registeredOperatorName:
        glance.registeredOperatorName = try cursor.lenientOptionalString() ?? ""
      default: try cursor.skipValue()
      }
    }
    guard met.contains(.present) else { throw JSONUndecided() }
    return glance
  }
}

extension SimInfo.Glance {
  init(
    present: Bool, iccid: String, phoneNumbers: [String], operatorName: String,
    registeredOperatorName: String
  ) {
    self.present = present
    self.iccid = iccid
    self.phoneNumbers = phoneNumbers
    self.operatorName = operatorName
    self.registeredOperatorName = registeredOperatorName
  }
}

extension NetworkInfo: JSONCursorDecodable {
  static let members = MemberNames<CodingKeys>()

  /// Reads `data` of `GET /api/network`; `registration_status` is promised.
  static func read(from cursor: inout JSONCursor) throws -> NetworkInfo {
    var network = NetworkInfo(
      operatorName: "", registrationStatus: "unknown", technologyPreference: "",
      signalStrength: nil, mcc: nil, mnc: nil)
    let met = try cursor.readMembers(members) { cursor, member in
      switch member {
      case .operatorName: network.operatorName = try cursor.lenientOptionalString() ?? ""
      case .registrationStatus:
        try cursor.expectPresent()
        network.registrationStatus = try cursor.lenientOptionalString() ?? "unknown"
      case .technologyPreference:
        network.technologyPreference = try cursor.lenientOptionalString() ?? ""
      case .signalStrength: network.signalStrength = try cursor.lenientInt()
      case .mcc: network.mcc = try cursor.lenientOptionalString()
      case .mnc: network.mnc = try cursor.lenientOptionalString()
      }
    }
    guard met.contains(.registrationStatus) else { throw JSONUndecided() }
    return network
  }

  init(
    operatorName: String, registrationStatus: String, technologyPreference: String,
    signalStrength: Int64?, mcc: String?, mnc: String?
  ) {
    self.operatorName = operatorName
    self.registrationStatus = registrationStatus
    self.technologyPreference = technologyPreference
    self.signalStrength = signalStrength
    self.mcc = mcc
    self.mnc = mnc
  }
}

extension DataState: JSONCursorDecodable {
  static let members = MemberNames<CodingKeys>()

  /// Reads `data` of `GET /api/data`; `active` is promised.
  static func read(from cursor: inout JSONCursor) throws -> DataState {
    var active: Bool?
    _ = try cursor.readMembers(members) { cursor, member in
      switch member {
      case .active:
        try cursor.expectPresent()
        active = try cursor.lenientBool()
      }
    }
    guard let active else { throw JSONUndecided() }
    return DataState(active: active)
  }

  init(active: Bool) {
    self.active = active
  }
}

extension SystemStats.Glance: JSONCursorDecodable {
  static let members = MemberNames<CodingKeys>()

  /// Reads `data` of `GET /api/stats`, the parts a glance keeps; `memory` is promised (an
  /// object).
  static func read(from cursor: inout JSONCursor) throws -> SystemStats.Glance {
    var memory: SystemStats.Memory?
    var uptime: SystemStats.Uptime?
    var temperatures: [SystemStats.Temperature] = []
    _ = try cursor.readMembers(members) { cursor, member in
      switch member {
      case .memory:
        // Promised, and an object: anything else steps aside.
        memory = try SystemStats.Memory.read(from: &cursor)
      case .uptime:
        if try cursor.peek() == .object {
          uptime = try SystemStats.Uptime.read(from: &cursor)
        } else {
          try cursor.skipValue()
        }
      case .temperatures:
        guard try cursor.peek() == .array else {
          try cursor.skipValue()
          return
        }
        try cursor.enterArray()
        var first = true
        while try cursor.nextElement(&first) {
          switch try cursor.peek() {
          case .object: temperatures.append(try SystemStats.Temperature.read(from: &cursor))
          case .null: throw JSONUndecided()
          default: try cursor.skipValue()
          }
        }
      }
    }
    guard let memory else { throw JSONUndecided() }
    return SystemStats.Glance(memory: memory, uptime: uptime, temperatures: temperatures)
  }
}

extension SystemStats.Glance {
  init(
    memory: SystemStats.Memory?, uptime: SystemStats.Uptime?,
    temperatures: [SystemStats.Temperature]
  ) {
    self.memory = memory
    self.uptime = uptime
    self.temperatures = temperatures
  }
}

extension SystemStats.Memory {
  static let members = MemberNames<CodingKeys>()

  /// Reads the object at the cursor as ``init(from:)`` does.
  static func read(from cursor: inout JSONCursor) throws -> SystemStats.Memory {
    var memory = SystemStats.Memory(
      totalBytes: nil, availableBytes: nil, usedBytes: nil, usedPercent: 0, cachedBytes: nil,
      buffersBytes: nil)
    _ = try cursor.readMembers(members) { cursor, member in
      switch member {
      case .totalBytes: memory.totalBytes = try cursor.lenientInt()
      case .availableBytes: memory.availableBytes = try cursor.lenientInt()
      case .usedBytes: memory.usedBytes = try cursor.lenientInt()
      case .usedPercent: memory.usedPercent = try cursor.lenientDouble() ?? 0
      case .cachedBytes: memory.cachedBytes = try cursor.lenientInt()
      case .buffersBytes: memory.buffersBytes = try cursor.lenientInt()
      }
    }
    return memory
  }

  init(
    totalBytes: Int64?, availableBytes: Int64?, usedBytes: Int64?, usedPercent: Double,
    cachedBytes: Int64?, buffersBytes: Int64?
  ) {
    self.totalBytes = totalBytes
    self.availableBytes = availableBytes
    self.usedBytes = usedBytes
    self.usedPercent = usedPercent
    self.cachedBytes = cachedBytes
    self.buffersBytes = buffersBytes
  }
}

extension SystemStats.Uptime {
  static let members = MemberNames<CodingKeys>()

  /// Reads the object at the cursor as ``init(from:)`` does.
  static func read(from cursor: inout JSONCursor) throws -> SystemStats.Uptime {
    var uptime = SystemStats.Uptime(uptimeSeconds: 0, idleSeconds: 0, uptimeFormatted: "")
    _ = try cursor.readMembers(members) { cursor, member in
      switch member {
      case .uptimeSeconds: uptime.uptimeSeconds = try cursor.lenientDouble() ?? 0
      case .idleSeconds: uptime.idleSeconds = try cursor.lenientDouble() ?? 0
      case .uptimeFormatted: uptime.uptimeFormatted = try cursor.lenientOptionalString() ?? ""
      }
    }
    return uptime
  }

  init(uptimeSeconds: Double, idleSeconds: Double, uptimeFormatted: String) {
    self.uptimeSeconds = uptimeSeconds
    self.idleSeconds = idleSeconds
    self.uptimeFormatted = uptimeFormatted
  }
}

extension SystemStats.Temperature {
  static let members = MemberNames<CodingKeys>()

  /// Reads the object at the cursor as ``init(from:)`` does.
  static func read(from cursor: inout JSONCursor) throws -> SystemStats.Temperature {
    var zone = SystemStats.Temperature(zone: "", type: "", label: "", temperature: nil)
    _ = try cursor.readMembers(members) { cursor, member in
      switch member {
      case .zone: zone.zone = try cursor.lenientOptionalString() ?? ""
      case .type: zone.type = try cursor.lenientOptionalString() ?? ""
      case .label: zone.label = try cursor.lenientOptionalString() ?? ""
      case .temperature: zone.temperature = try cursor.lenientDouble()
      }
    }
    return zone
  }

  init(zone: String, type: String, label: String, temperature: Double?) {
    self.zone = zone
    self.type = type
    self.label = label
    self.temperature = temperature
  }
}
