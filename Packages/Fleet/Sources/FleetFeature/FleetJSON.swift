import CommandLineKit
import Foundation

// `fleet list --json` and `fleet show --json` written directly (issue 19, case 5): the same
// bytes as their synthesized `Encodable` through `JSONOutput`'s encoder, members in sorted
// order, `nil` left out. FleetJSONTests compares the two for every field.

extension InstancesPayload: JSONOutputWritable {
  /// `{"instances": [...]}`.
  public func write(to json: inout JSONOutputWriter) {
    json.object { json in
      json.key("instances")
      json.array(instances) { json, row in row.write(to: &json) }
    }
  }
}

extension FleetRow: JSONOutputWritable {
  /// The row's members in sorted order.
  public func write(to json: inout JSONOutputWriter) {
    json.object { json in
      json.member("checkedAt", checkedAt)
      json.member("createdAt", createdAt)
      json.member("detail", detail)
      json.member("group", group)
      json.member("hasPassword", hasPassword)
      json.member("id", id)
      json.member("isPlainHTTP", isPlainHTTP)
      json.member("latencyMS", latencyMS)
      json.member("name", name)
      json.member("origin", origin)
      json.member("reason", reason)
      json.member("revision", revision)
      json.member("snapshot", snapshot)
      json.member("snapshotFetchedAt", snapshotFetchedAt)
      json.member("status", status.rawValue)
      json.key("tags")
      json.array(tags)
      json.member("version", version)
    }
  }
}

extension DeviceSnapshot: JSONOutputWritable {
  /// The snapshot's members in sorted order.
  public func write(to json: inout JSONOutputWriter) {
    json.object { json in
      json.member("dataActive", dataActive)
      json.member("iccid", iccid)
      json.member("imei", imei)
      json.member("latestSMS", latestSMS)
      json.member("memoryPercent", memoryPercent)
      json.member("model", model)
      if let notes {
        json.key("notes")
        json.array(notes) { json, note in note.write(to: &json) }
      }
      json.member("operatorName", operatorName)
      json.key("phoneNumbers")
      json.array(phoneNumbers)
      json.member("registration", registration)
      json.member("signalPercent", signalPercent)
      json.member("temperatureCelsius", temperatureCelsius)
      json.member("uptime", uptime)
    }
  }
}

extension SnapshotNote: JSONOutputWritable {
  /// The note's members in sorted order.
  public func write(to json: inout JSONOutputWriter) {
    json.object { json in
      json.key("arguments")
      json.object(arguments)
      json.member("part", part.rawValue)
      json.member("reasonKey", reasonKey)
    }
  }
}

extension SMSPreview: JSONOutputWritable {
  /// The preview's members in sorted order.
  public func write(to json: inout JSONOutputWriter) {
    json.object { json in
      json.member("date", date)
      json.member("direction", direction)
      json.member("maskedBody", maskedBody)
      json.member("peer", peer)
    }
  }
}

extension StatusReason: JSONOutputWritable {
  /// `{"code": …, "message": …}`, the message in the output's language (as its `encode(to:)`).
  public func write(to json: inout JSONOutputWriter) {
    json.object { json in
      json.member("code", rawValue)
      json.member("message", text(json.language))
    }
  }
}
