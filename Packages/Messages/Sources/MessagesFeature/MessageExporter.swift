import Essentials
import Foundation

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
/// place at the end, so a failure leaves nothing half-written (and an existing file whole).
/// Columns: `instance`, `instance_id`, `direction`, `peer`, `peer_key`, `at` (ISO 8601, UTC),
/// `device_timestamp`, `status`, `body` (masked with `Redactor.maskBody` unless
/// `includeBodies`).
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

    enum CodingKeys: String, CodingKey {
      case instance, direction, peer, at, status, body
      case instanceID = "instance_id"
      case peerKey = "peer_key"
      case deviceTimestamp = "device_timestamp"
      case bodyRedacted = "body_redacted"
    }
  }

  static let header = [
    "instance", "instance_id", "direction", "peer", "peer_key", "at", "device_timestamp",
    "status", "body",
  ]

  /// Writes every message matching `filter` to `destination`; returns how many.
  public func export(
    filter: MessageFilter, format: ExportFormat, includeBodies: Bool, to destination: URL
  ) throws -> Int {
    let folder = destination.deletingLastPathComponent()
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
      isDirectory.boolValue, FileManager.default.isWritableFile(atPath: folder.path)
    else {
      throw MessagesFailure("error.outputNotWritable", ["path": destination.path])
    }
    if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      throw MessagesFailure("error.outputNotWritable", ["path": destination.path])
    }
    let partial = folder.appendingPathComponent(
      ".\(destination.lastPathComponent).\(UUID().uuidString).partial")
    guard FileManager.default.createFile(atPath: partial.path, contents: nil),
      let handle = try? FileHandle(forWritingTo: partial)
    else {
      throw MessagesFailure("error.outputNotWritable", ["path": destination.path])
    }
    var count = 0
    do {
      defer { try? handle.close() }
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      let iso = ISO8601DateFormatter()
      if format == .csv {
        try handle.write(contentsOf: Data((Self.header.joined(separator: ",") + "\r\n").utf8))
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
            bodyRedacted: !includeBodies)
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
            ]
            let row = fields.map(UntrustedText.csvCell).joined(separator: ",")
            chunk.append(Data((row + "\r\n").utf8))
          }
        }
        try handle.write(contentsOf: chunk)
        count += page.count
      }
      try handle.synchronize()
    } catch {
      try? FileManager.default.removeItem(at: partial)
      if error is MessagesFailure { throw error }
      throw MessagesFailure(
        "error.exportFailed", ["path": destination.path, "detail": error.localizedDescription])
    }
    do {
      if FileManager.default.fileExists(atPath: destination.path) {
        _ = try FileManager.default.replaceItemAt(destination, withItemAt: partial)
      } else {
        try FileManager.default.moveItem(at: partial, to: destination)
      }
    } catch {
      try? FileManager.default.removeItem(at: partial)
      throw MessagesFailure(
        "error.exportFailed", ["path": destination.path, "detail": error.localizedDescription])
    }
    return count
  }
}
