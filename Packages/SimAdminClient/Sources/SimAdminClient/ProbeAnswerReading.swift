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

  /// The members of the object at the cursor, each key matched against `names` (a key not
  /// among them is skipped): `body` reads the value of the name at the index it gets. A name
  /// met twice steps aside. Returns which names were met, as bits; throws ``JSONUndecided``
  /// when the value is not an object.
  mutating func readMembers(
    _ names: [StaticString], _ body: (inout JSONCursor, Int) throws -> Void
  ) throws -> UInt32 {
    guard try peek() == .object else { throw JSONUndecided() }
    var met: UInt32 = 0
    try enterObject()
    var first = true
    while let key = try nextMember(&first) {
      guard let index = names.firstIndex(where: { self.key(key, is: $0) }) else {
        try skipValue()
        continue
      }
      let bit: UInt32 = 1 << UInt32(index)
      guard met & bit == 0 else { throw JSONUndecided() }
      met |= bit
      try body(&self, index)
    }
    return met
  }

  /// Steps aside unless a value other than null follows: a promised part, which the
  /// checked path reports when it is null.
  mutating func expectPresent() throws {
    guard try peek() != .null else { throw JSONUndecided() }
  }
}

extension HealthInfo: JSONCursorDecodable {
  static let names: [StaticString] = ["status", "message", "platform", "version"]

  /// Reads the body of `GET /api/health`; `status` is promised.
  static func read(from cursor: inout JSONCursor) throws -> HealthInfo {
    var health = HealthInfo(status: "", message: "", platform: "", version: "")
    let met = try cursor.readMembers(names) { cursor, index in
      switch index {
      case 0:
        try cursor.expectPresent()
        health.status = try cursor.lenientOptionalString() ?? ""
      case 1: health.message = try cursor.lenientOptionalString() ?? ""
      case 2: health.platform = try cursor.lenientOptionalString() ?? ""
      default: health.version = try cursor.lenientOptionalString() ?? ""
      }
    }
    guard met & 1 != 0 else { throw JSONUndecided() }
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
  static let names: [StaticString] = [
    "imei", "manufacturer", "model", "revision", "online", "powered",
  ]

  /// Reads `data` of `GET /api/device`; `imei` is promised.
  static func read(from cursor: inout JSONCursor) throws -> DeviceInfo {
    var device = DeviceInfo(
      imei: "", manufacturer: "", model: "", revision: nil, online: false, powered: false)
    let met = try cursor.readMembers(names) { cursor, index in
      switch index {
      case 0:
        try cursor.expectPresent()
        device.imei = try cursor.lenientOptionalString() ?? ""
      case 1: device.manufacturer = try cursor.lenientOptionalString() ?? ""
      case 2: device.model = try cursor.lenientOptionalString() ?? ""
      case 3: device.revision = try cursor.lenientOptionalString()
      case 4: device.online = try cursor.lenientBool()
      default: device.powered = try cursor.lenientBool()
      }
    }
    guard met & 1 != 0 else { throw JSONUndecided() }
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
  static let names: [StaticString] = [
    "present", "iccid", "phone_numbers", "operator_name", "registered_operator_name",
  ]

  /// Reads `data` of `GET /api/sim`, the parts a glance keeps; `present` is promised.
  static func read(from cursor: inout JSONCursor) throws -> SimInfo.Glance {
    var glance = SimInfo.Glance(
      present: false, iccid: "", phoneNumbers: [], operatorName: "", registeredOperatorName: "")
    let met = try cursor.readMembers(names) { cursor, index in
      switch index {
      case 0:
        try cursor.expectPresent()
        glance.present = try cursor.lenientBool()
      case 1: glance.iccid = try cursor.lenientOptionalString() ?? ""
      case 2: glance.phoneNumbers = try cursor.lenientStrings()
      case 3: glance.operatorName = try cursor.lenientOptionalString() ?? ""
      default: glance.registeredOperatorName = try cursor.lenientOptionalString() ?? ""
      }
    }
    guard met & 1 != 0 else { throw JSONUndecided() }
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
  static let names: [StaticString] = [
    "operator_name", "registration_status", "technology_preference", "signal_strength", "mcc",
    "mnc",
  ]

  /// Reads `data` of `GET /api/network`; `registration_status` is promised.
  static func read(from cursor: inout JSONCursor) throws -> NetworkInfo {
    var network = NetworkInfo(
      operatorName: "", registrationStatus: "unknown", technologyPreference: "",
      signalStrength: nil, mcc: nil, mnc: nil)
    let met = try cursor.readMembers(names) { cursor, index in
      switch index {
      case 0: network.operatorName = try cursor.lenientOptionalString() ?? ""
      case 1:
        try cursor.expectPresent()
        network.registrationStatus = try cursor.lenientOptionalString() ?? "unknown"
      case 2: network.technologyPreference = try cursor.lenientOptionalString() ?? ""
      case 3: network.signalStrength = try cursor.lenientInt()
      case 4: network.mcc = try cursor.lenientOptionalString()
      default: network.mnc = try cursor.lenientOptionalString()
      }
    }
    guard met & 2 != 0 else { throw JSONUndecided() }
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
  static let names: [StaticString] = ["active"]

  /// Reads `data` of `GET /api/data`; `active` is promised.
  static func read(from cursor: inout JSONCursor) throws -> DataState {
    var active: Bool?
    _ = try cursor.readMembers(names) { cursor, _ in
      try cursor.expectPresent()
      active = try cursor.lenientBool()
    }
    guard let active else { throw JSONUndecided() }
    return DataState(active: active)
  }

  init(active: Bool) {
    self.active = active
  }
}

extension SystemStats.Glance: JSONCursorDecodable {
  static let names: [StaticString] = ["memory", "uptime", "temperature"]

  /// Reads `data` of `GET /api/stats`, the parts a glance keeps; `memory` is promised (an
  /// object).
  static func read(from cursor: inout JSONCursor) throws -> SystemStats.Glance {
    var memory: SystemStats.Memory?
    var uptime: SystemStats.Uptime?
    var temperatures: [SystemStats.Temperature] = []
    _ = try cursor.readMembers(names) { cursor, index in
      switch index {
      case 0:
        // Promised, and an object: anything else steps aside.
        memory = try SystemStats.Memory.read(from: &cursor)
      case 1:
        if try cursor.peek() == .object {
          uptime = try SystemStats.Uptime.read(from: &cursor)
        } else {
          try cursor.skipValue()
        }
      default:
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
  static let names: [StaticString] = [
    "total_bytes", "available_bytes", "used_bytes", "used_percent", "cached_bytes",
    "buffers_bytes",
  ]

  /// Reads the object at the cursor as ``init(from:)`` does.
  static func read(from cursor: inout JSONCursor) throws -> SystemStats.Memory {
    var memory = SystemStats.Memory(
      totalBytes: nil, availableBytes: nil, usedBytes: nil, usedPercent: 0, cachedBytes: nil,
      buffersBytes: nil)
    _ = try cursor.readMembers(names) { cursor, index in
      switch index {
      case 0: memory.totalBytes = try cursor.lenientInt()
      case 1: memory.availableBytes = try cursor.lenientInt()
      case 2: memory.usedBytes = try cursor.lenientInt()
      case 3: memory.usedPercent = try cursor.lenientDouble() ?? 0
      case 4: memory.cachedBytes = try cursor.lenientInt()
      default: memory.buffersBytes = try cursor.lenientInt()
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
  static let names: [StaticString] = ["uptime_seconds", "idle_seconds", "uptime_formatted"]

  /// Reads the object at the cursor as ``init(from:)`` does.
  static func read(from cursor: inout JSONCursor) throws -> SystemStats.Uptime {
    var uptime = SystemStats.Uptime(uptimeSeconds: 0, idleSeconds: 0, uptimeFormatted: "")
    _ = try cursor.readMembers(names) { cursor, index in
      switch index {
      case 0: uptime.uptimeSeconds = try cursor.lenientDouble() ?? 0
      case 1: uptime.idleSeconds = try cursor.lenientDouble() ?? 0
      default: uptime.uptimeFormatted = try cursor.lenientOptionalString() ?? ""
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
  static let names: [StaticString] = ["zone", "type", "label", "temperature"]

  /// Reads the object at the cursor as ``init(from:)`` does.
  static func read(from cursor: inout JSONCursor) throws -> SystemStats.Temperature {
    var zone = SystemStats.Temperature(zone: "", type: "", label: "", temperature: nil)
    _ = try cursor.readMembers(names) { cursor, index in
      switch index {
      case 0: zone.zone = try cursor.lenientOptionalString() ?? ""
      case 1: zone.type = try cursor.lenientOptionalString() ?? ""
      case 2: zone.label = try cursor.lenientOptionalString() ?? ""
      default: zone.temperature = try cursor.lenientDouble()
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
