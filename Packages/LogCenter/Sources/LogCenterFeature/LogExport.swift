import Essentials
import Foundation

/// The file formats of `msa logs export`.
public enum LogExportFormat: String, Sendable, Codable, CaseIterable {
  /// One JSON object per line (the ``LogItem`` JSON form, sorted keys, ISO-8601 dates).
  case jsonl
  /// RFC 4180 CSV with a header row: `id,kind,date,level,source,instance_id,instance_name,
  /// message,metadata` (metadata as `key=value; …`, sorted).
  case csv
}

/// Turns records into export files. Records are already redacted (``LogItem`` masks on
/// creation), so nothing secret can reach a file.
public enum LogExporter {
  /// The export of `items` in `format`.
  public static func render(_ items: [LogItem], format: LogExportFormat) -> Data {
    switch format {
    case .jsonl:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      encoder.dateEncodingStrategy = .iso8601
      var data = Data()
      for item in items {
        if let line = try? encoder.encode(item) {
          // As `--json`: every control a \uXXXX escape.
          data.append(Data(UntrustedText.escapingJSON(String(decoding: line, as: UTF8.self)).utf8))
          data.append(0x0A)
        }
      }
      return data
    case .csv:
      var lines = [
        "id,kind,date,level,source,instance_id,instance_name,message,metadata"
      ]
      for item in items {
        let metadata = item.metadata.sorted { $0.key < $1.key }
          .map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        let fields = [
          item.id.description, item.kind.rawValue, LogTime.iso(item.date), item.level.rawValue,
          item.source, item.instanceID ?? "", item.instanceName ?? "", item.message, metadata,
        ]
        lines.append(fields.map(UntrustedText.csvCell).joined(separator: ","))
      }
      return Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }
  }
}
