import Essentials
import Foundation
import LocalStore

/// The export file formats.
public enum ExportFormat: String, Sendable, CaseIterable, Codable {
  /// RFC 4180 CSV with a header row.
  case csv
  /// One JSON object per line.
  case jsonl
}

/// Writes the archive to a file: CSV or JSON Lines, bodies redacted unless asked.
///
/// The file is written to a temporary file in the destination's folder and renamed into
/// place at the end (``AtomicFile``), so a failure leaves nothing half-written and an
/// existing file whole; an existing file is replaced only with `--force`, and only when it
/// is a regular file.
/// Columns: `instance`, `instance_id`, `direction`, `peer`, `peer_key`, `at` (ISO 8601, UTC),
/// `device_timestamp`, `status`, `body` (masked with `Redactor.maskBody` unless
/// `includeBodies`), `sim_number` (the SIM that received or sent it, empty when unknown),
/// `code` (its verification code; empty without one, masked unless `includeBodies`).
public struct MessageExporter: Sendable {
  /// The archive read.
  public let archive: MessageArchive

  /// An exporter.
  public init(archive: MessageArchive) {
    self.archive = archive
  }

  /// One exported line's fields.
  struct Record: Encodable {
    var instance: String
    var instanceID: String
    var direction: String
    var peer: String
    var peerKey: String
    var at: String
    var deviceTimestamp: String
    var status: String
    var body: String
    var bodyRedacted: Bool
    var simNumber: String?
    var code: String?

    enum CodingKeys: String, CodingKey {
      case instance, direction, peer, at, status, body, code
      case simNumber = "sim_number"
      case instanceID = "instance_id"
      case peerKey = "peer_key"
      case deviceTimestamp = "device_timestamp"
      case bodyRedacted = "body_redacted"
    }
  }

  static let header = [
    "instance", "instance_id", "direction", "peer", "peer_key", "at", "device_timestamp",
    "status", "body", "sim_number", "code",
  ]

  /// Writes every message matching `filter` to `destination` with ``AtomicFile`` (mode
  /// 0600, a temporary file renamed into place); returns how many and where they went. An
  /// existing file is handled as `existing` says (refused without `--force`; a default name
  /// gets a number).
  public func export(
    filter: MessageFilter, format: ExportFormat, includeBodies: Bool, to destination: URL,
    existing: AtomicFile.Existing = .refuse
  ) throws -> (count: Int, url: URL) {
    let folder = destination.deletingLastPathComponent()
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw MessagesFailure("error.outputNotWritable", ["path": destination.path])
    }
    var count = 0
    let written = try AtomicFile.write(to: destination, mode: 0o600, existing: existing) {
      sink in
      count = try export(filter: filter, format: format, includeBodies: includeBodies) {
        try sink.write($0)
      }
    }
    return (count, written)
  }

  /// Hands every message matching `filter`, as the lines of `format`, to `write` a page at a
  /// time (`msa messages export -o -` writes them to standard output); returns how many.
  public func export(
    filter: MessageFilter, format: ExportFormat, includeBodies: Bool,
    into write: (Data) throws -> Void
  ) throws -> Int {
    var count = 0
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let iso = ISO8601DateFormatter()
    if format == .csv {
      try write(Data((Self.header.joined(separator: ",") + "\r\n").utf8))
    }
    try archive.forEachPage(filter: filter) { page in
      var chunk = Data()
      for message in page {
        let record = Record(
          instance: message.instanceName, instanceID: message.instanceID,
          direction: message.direction, peer: message.peer, peerKey: message.peerKey,
          at: iso.string(from: message.deviceAt), deviceTimestamp: message.deviceTimestamp,
          status: message.status,
          body: includeBodies ? message.body : Redactor.maskBody(message.body),
          bodyRedacted: !includeBodies, simNumber: message.simNumber,
          code: message.code.map { includeBodies ? $0 : CodeText.masked($0) })
        switch format {
        case .jsonl:
          // As `--json`: the exact content, every control a \uXXXX escape.
          let line = String(decoding: try encoder.encode(record), as: UTF8.self)
          chunk.append(Data(UntrustedText.escapingJSON(line).utf8))
          chunk.append(0x0A)
        case .csv:
          let fields = [
            record.instance, record.instanceID, record.direction, record.peer, record.peerKey,
            record.at, record.deviceTimestamp, record.status, record.body,
            record.simNumber ?? "", record.code ?? "",
          ]
          let row = fields.map(UntrustedText.csvCell).joined(separator: ",")
          chunk.append(Data((row + "\r\n").utf8))
        }
      }
      try write(chunk)
      count += page.count
    }
    return count
  }
}
