import Essentials
import Foundation

/// One record of either log, as the log center lists, shows and exports it.
///
/// Its JSON form (used by `--json` and JSON Lines export) has the keys `id` (`r123`/`c45`),
/// `kind`, `date` (ISO-8601), `level`, `source`, `instanceID`, `instanceName`, `code` (the
/// event code, when the record has one), `message` (in words, in the output's language),
/// `metadata` (object of strings) and, for connection records, `probe`.
public struct LogItem: Sendable, Equatable, Codable, Identifiable {
  /// Facts of a connection probe.
  public struct Probe: Sendable, Equatable, Codable {
    /// The probe's result code (`ok`, `timeout`, …).
    public var result: String
    /// The status after the probe.
    public var status: String
    /// The status before, when known.
    public var previousStatus: String?
    /// Latency in milliseconds.
    public var latencyMS: Int?
    /// The reason code, when not online.
    public var reason: String?
    /// The device requests the probe made (method, route, status, bytes, milliseconds).
    public var requests: [DeviceRequest]

    /// A probe's facts.
    public init(
      result: String, status: String, previousStatus: String? = nil, latencyMS: Int? = nil,
      reason: String? = nil, requests: [DeviceRequest] = []
    ) {
      self.result = result
      self.status = status
      self.previousStatus = previousStatus
      self.latencyMS = latencyMS
      self.reason = reason
      self.requests = requests
    }

    private enum CodingKeys: String, CodingKey {
      case result, status, previousStatus, latencyMS, reason, requests
    }

    /// Decodes a probe; records exported before requests were kept have none.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      self.init(
        result: try container.decode(String.self, forKey: .result),
        status: try container.decode(String.self, forKey: .status),
        previousStatus: try container.decodeIfPresent(String.self, forKey: .previousStatus),
        latencyMS: try container.decodeIfPresent(Int.self, forKey: .latencyMS),
        reason: try container.decodeIfPresent(String.self, forKey: .reason),
        requests: try container.decodeIfPresent([DeviceRequest].self, forKey: .requests) ?? [])
    }
  }

  /// `r123` or `c45`.
  public var id: LogRecordID
  /// When it happened.
  public var date: Date
  /// Its severity (connection records: `info` when online, else `warning`).
  public var level: LogLevel
  /// The logger label (runtime) or `probe` (connection).
  public var source: String
  /// The instance it concerns.
  public var instanceID: String?
  /// That instance's name (at the time, for connection records).
  public var instanceName: String?
  /// The message, with secrets masked: an event code as stored, its sentence once
  /// ``localized(_:)``.
  public var message: String
  /// The event code (`messages.synced`, `probe`) once ``localized(_:)``; nil for a record of
  /// free text.
  public var code: String?
  /// Metadata, with secrets masked.
  public var metadata: [String: String]
  /// The probe's facts, for connection records.
  public var probe: Probe?

  /// A record; the message and metadata are passed through ``Redactor`` again, so a record
  /// written without the `Logger` still cannot show a secret.
  public init(
    id: LogRecordID, date: Date, level: LogLevel, source: String, instanceID: String?,
    instanceName: String?, message: String, metadata: [String: String] = [:],
    probe: Probe? = nil
  ) {
    self.id = id
    self.date = date
    self.level = level
    self.source = source
    self.instanceID = instanceID
    self.instanceName = instanceName
    self.message = Redactor.redact(text: message)
    self.metadata = Redactor.redact(metadata: metadata)
    self.probe = probe
  }

  /// Which log it comes from.
  public var kind: LogKind { id.kind }

  enum CodingKeys: String, CodingKey {
    case id, kind, date, level, source, instanceID, instanceName, code, message, metadata, probe
  }

  /// This record in `language`: a known event's sentence with its metadata filled in, a
  /// probe's statuses and reason in words, and the instance's name as it was logged. A record
  /// of free text (written before events had codes) keeps its text.
  public func localized(_ language: AppLanguage) -> LogItem {
    var copy = self
    if let logged = metadata["instance_name"], !logged.isEmpty { copy.instanceName = logged }
    if let probe {
      var arguments = ["status": EventText.status(probe.status, language)]
      var key = "probe"
      if let previous = probe.previousStatus, previous != probe.status {
        arguments["from"] = EventText.status(previous, language)
        key += ".changed"
      }
      if let reason = probe.reason {
        arguments["reason"] = EventText.reason(reason, language)
        key += key == "probe" ? ".reason" : "Reason"
      }
      copy.code = "probe"
      copy.message = EventText.event(key, language, arguments) ?? message
    } else if code == nil, let text = EventText.event(message, language, metadata) {
      copy.code = message
      copy.message = text
    }
    return copy
  }

  /// Encodes every field plus `kind`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(kind, forKey: .kind)
    try container.encode(date, forKey: .date)
    try container.encode(level, forKey: .level)
    try container.encode(source, forKey: .source)
    try container.encodeIfPresent(instanceID, forKey: .instanceID)
    try container.encodeIfPresent(instanceName, forKey: .instanceName)
    try container.encodeIfPresent(code, forKey: .code)
    try container.encode(message, forKey: .message)
    try container.encode(metadata, forKey: .metadata)
    try container.encodeIfPresent(probe, forKey: .probe)
  }

  /// Decodes what ``encode(to:)`` wrote.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decode(LogRecordID.self, forKey: .id),
      date: try container.decode(Date.self, forKey: .date),
      level: try container.decode(LogLevel.self, forKey: .level),
      source: try container.decode(String.self, forKey: .source),
      instanceID: try container.decodeIfPresent(String.self, forKey: .instanceID),
      instanceName: try container.decodeIfPresent(String.self, forKey: .instanceName),
      message: try container.decode(String.self, forKey: .message),
      metadata: try container.decodeIfPresent([String: String].self, forKey: .metadata) ?? [:],
      probe: try container.decodeIfPresent(Probe.self, forKey: .probe))
    code = try container.decodeIfPresent(String.self, forKey: .code)
  }
}
