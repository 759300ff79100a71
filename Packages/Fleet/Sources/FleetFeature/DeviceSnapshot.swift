import Essentials
import Foundation
import SimAdminClient

/// The last known values of one instance, stored as JSON beside its status.
///
/// Only what the workbench and detail need: no credential, and the latest SMS only as a
/// masked preview (``Redactor/maskBody(_:preview:)``), never its full body.
public struct DeviceSnapshot: Sendable, Codable, Hashable {
  /// The SIM's phone numbers (may be empty).
  public var phoneNumbers: [String]
  /// The operator name (device text, never translated).
  public var operatorName: String?
  /// Signal strength in percent.
  public var signalPercent: Int?
  /// Registration state as the device says it (`registered`, `searching`…).
  public var registration: String?
  /// The highest temperature reported, °C.
  public var temperatureCelsius: Double?
  /// The modem's manufacturer and model.
  public var model: String?
  /// The modem's IMEI.
  public var imei: String?
  /// The SIM's ICCID.
  public var iccid: String?
  /// Whether mobile data is on (nil: not reported).
  public var dataActive: Bool?
  /// Memory used, percent.
  public var memoryPercent: Double?
  /// Uptime as the device formats it.
  public var uptime: String?
  /// The latest SMS, masked.
  public var latestSMS: SMSPreview?
  /// What the calls that feed no status could not tell (nil when they all answered).
  public var notes: [SnapshotNote]?

  /// A snapshot; every field optional.
  public init(
    phoneNumbers: [String] = [], operatorName: String? = nil, signalPercent: Int? = nil,
    registration: String? = nil, temperatureCelsius: Double? = nil, model: String? = nil,
    imei: String? = nil, iccid: String? = nil, dataActive: Bool? = nil,
    memoryPercent: Double? = nil, uptime: String? = nil, latestSMS: SMSPreview? = nil
  ) {
    self.phoneNumbers = phoneNumbers
    self.operatorName = operatorName
    self.signalPercent = signalPercent
    self.registration = registration
    self.temperatureCelsius = temperatureCelsius
    self.model = model
    self.imei = imei
    self.iccid = iccid
    self.dataActive = dataActive
    self.memoryPercent = memoryPercent
    self.uptime = uptime
    self.latestSMS = latestSMS
  }

  /// The first phone number, if any.
  public var phoneNumber: String? { phoneNumbers.first { !$0.isEmpty } }

  /// Whether every reading lies in the range it is believed in (``DeviceReading``): what a
  /// connection test keeps always does; a stored text from an older version may not.
  var isBelieved: Bool {
    (signalPercent.map { DeviceReading.percent.checked(Int64($0)) != nil } ?? true)
      && (temperatureCelsius.map { DeviceReading.celsius.checked($0) != nil } ?? true)
      && (memoryPercent.map { DeviceReading.percent.checked($0) != nil } ?? true)
  }

  enum CodingKeys: String, CodingKey {
    case phoneNumbers, operatorName, signalPercent, registration, temperatureCelsius, model, imei
    case iccid, dataActive, memoryPercent, uptime, latestSMS, notes
  }

  /// Reads a stored snapshot, which an older version may have written with a device's absurd
  /// reading in it (a temperature of 1e308 crashed every start of `fleet list`, `view fleet`
  /// and `msa ui` until the device was removed; issue 36): a reading outside the range it is
  /// believed in (``DeviceReading``) is unknown, and a field that cannot be read is unknown
  /// without losing the rest.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    func value<T: Decodable>(_ key: CodingKeys, _ type: T.Type = T.self) -> T? {
      (try? c.decodeIfPresent(T.self, forKey: key)) ?? nil
    }
    phoneNumbers = value(.phoneNumbers) ?? []
    operatorName = value(.operatorName)
    signalPercent = DeviceReading.percent.checked(value(.signalPercent, Int64.self)).map { Int($0) }
    registration = value(.registration)
    temperatureCelsius = DeviceReading.celsius.checked(value(.temperatureCelsius, Double.self))
    model = value(.model)
    imei = value(.imei)
    iccid = value(.iccid)
    dataActive = value(.dataActive)
    memoryPercent = DeviceReading.percent.checked(value(.memoryPercent, Double.self))
    uptime = value(.uptime)
    latestSMS = value(.latestSMS)
    notes = value(.notes)
  }

  /// The JSON text stored in `instance_status.snapshot`: written directly
  /// (``writtenJSONText()``, the encoder's very bytes), through `JSONEncoder` where the writer
  /// steps aside.
  func jsonText() -> String? {
    storedText().text
  }

  /// The stored text, and whether reading it back (``decode(_:)``) gives exactly this
  /// snapshot: so when the writer wrote it (every number finite, every date in the years it
  /// writes), the SMS date is in whole seconds (`.iso8601` keeps no fraction) and every
  /// reading is believed (``isBelieved``). A refresh then shows the snapshot it holds instead
  /// of decoding the text it just stored (`SnapshotTextTests` reads every such text back).
  func storedText() -> (text: String?, readsBackAsItself: Bool) {
    if let written = writtenJSONText() {
      let seconds = latestSMS?.date?.timeIntervalSince1970 ?? 0
      return (written, seconds.rounded(.down) == seconds && isBelieved)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    guard let data = try? encoder.encode(self) else { return (nil, false) }
    return (String(decoding: data, as: UTF8.self), false)
  }

  /// Decodes stored JSON text; nil when absent or unreadable.
  static func decode(_ text: String?) -> DeviceSnapshot? {
    guard let text else { return nil }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try? decoder.decode(DeviceSnapshot.self, from: Data(text.utf8))
  }
}

/// A value a connection test could not read from a call that feeds no status; the status is
/// unchanged and the value shows as unknown with this note.
public struct SnapshotNote: Sendable, Codable, Hashable {
  /// Which call.
  public enum Part: String, Sendable, Codable, Hashable {
    /// `/api/stats`: temperature, memory, uptime.
    case stats
    /// `/api/sms/list?limit=1`: the latest SMS preview.
    case latestSMS
  }

  /// Which call.
  public var part: Part
  /// The client's reason key (`error.timeout`, `error.upstream`…).
  public var reasonKey: String
  /// The reason's placeholder values (the device's own message, a detail).
  public var arguments: [String: String]

  /// A note for `part` that failed with `error`.
  public init(part: Part, _ error: SimAdminError) {
    self.part = part
    reasonKey = error == .cancelled ? SimAdminError.timeout.reasonKey : error.reasonKey
    arguments = error.arguments
  }

  /// The note in `language`: which values are unknown and why.
  public func text(_ language: AppLanguage) -> String {
    let reason = SimAdminClientStrings.text(reasonKey, language, arguments)
    return FleetStrings.text("note.\(part.rawValue)", language, ["reason": reason])
  }
}

/// The newest SMS of a device, reduced to what a list may show.
public struct SMSPreview: Sendable, Codable, Hashable {
  /// `incoming` or `outgoing`.
  public var direction: String
  /// The peer number as the device reports it.
  public var peer: String
  /// The body, masked: digits runs hidden, at most 20 characters.
  public var maskedBody: String
  /// When it was received or sent, if the device's timestamp could be read.
  public var date: Date?

  /// A preview.
  public init(direction: String, peer: String, maskedBody: String, date: Date?) {
    self.direction = direction
    self.peer = peer
    self.maskedBody = maskedBody
    self.date = date
  }
}
